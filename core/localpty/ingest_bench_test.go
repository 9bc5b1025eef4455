package localpty

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/ptyseam/ptyseam/core"
)

// ingestBytes is what the generator prints: 80-byte lines (the terminal
// turns each "\n" into "\r\n", so a little more arrives).
const ingestBytes = 50 << 20

var generator = []string{"sh", "-c", "yes " + strings.Repeat("x", 79) + " | head -c " + strconv.Itoa(ingestBytes)}

// rawIngest reads the generator off a bare creack/pty master (blocking
// reads, the library's defaults) into io.Discard.
func rawIngest(tb testing.TB) (int64, time.Duration) {
	start := time.Now()
	cmd := exec.Command(generator[0], generator[1:]...)
	ptmx, err := pty.Start(cmd)
	if err != nil {
		tb.Fatal(err)
	}
	n, err := io.CopyBuffer(io.Discard, ptmx, make([]byte, 32<<10))
	d := time.Since(start)
	if err != nil && !errors.Is(err, syscall.EIO) {
		tb.Fatal(err)
	}
	_ = ptmx.Close()
	_ = cmd.Wait()
	return n, d
}

// backendIngest reads the generator through a session's Read.
func backendIngest(tb testing.TB, b *Backend) (int64, time.Duration) {
	start := time.Now()
	s, err := b.spawn(context.Background(), core.BackendRequest{Command: generator, Marker: testMarkerPrefix + "bench-" + randomHex(4)})
	if err != nil {
		tb.Fatal(err)
	}
	buf := make([]byte, 32<<10)
	var n int64
	for {
		k, err := s.Read(buf)
		n += int64(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	d := time.Since(start)
	if err := s.Close(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return n, d
}

func BenchmarkIngestRaw(b *testing.B) {
	need(b, "sh", "yes", "head")
	b.SetBytes(ingestBytes)
	for b.Loop() {
		if n, _ := rawIngest(b); n < ingestBytes {
			b.Fatalf("read %d bytes", n)
		}
	}
}

// BenchmarkIngestBackend times the backend; each iteration also runs the
// raw reader (not timed) so that "backend/raw" compares rates measured
// under the same load.
func BenchmarkIngestBackend(b *testing.B) {
	need(b, "sh", "yes", "head")
	bk := NewExec(ExecOptions{Options: shortOpts(false)})
	b.SetBytes(ingestBytes)
	var backendTime, rawTime time.Duration
	for b.Loop() {
		n, d := backendIngest(b, bk)
		if n < ingestBytes {
			b.Fatalf("read %d bytes", n)
		}
		backendTime += d
		b.StopTimer()
		_, rd := rawIngest(b)
		rawTime += rd
		b.StartTimer()
	}
	b.ReportMetric(float64(rawTime)/float64(backendTime), "backend/raw")
}
