package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/ptyseam/ptyseam/core"
)

// generator prints size bytes of 80-byte lines.
func generator(size int) []string {
	return []string{"sh", "-c", fmt.Sprintf("yes %s | head -c %d", strings.Repeat("x", 79), size)}
}

// rawIngest reads the generator from a bare creack/pty into io.Discard.
func rawIngest(b *testing.B, argv []string) time.Duration {
	start := time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 32<<10)
	for {
		_, err := f.Read(buf)
		if err != nil {
			if !errors.Is(err, syscall.EIO) && !errors.Is(err, io.EOF) {
				b.Fatal(err)
			}
			break
		}
	}
	_ = cmd.Wait()
	_ = f.Close()
	return time.Since(start)
}

// sessionIngest runs the generator on a ptyseam session and waits until
// every byte is in the scrollback and the exit status is known.
func sessionIngest(b *testing.B, svc *core.Service, argv []string, size int) time.Duration {
	ctx := context.Background()
	owner := core.NewOwner("bench")
	start := time.Now()
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: argv, NoInitialWait: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
		b.Fatal(err)
	}
	d := time.Since(start)
	info, _ := svc.Info(owner, s.ID)
	if want := int64(size / 80); info.TotalLines != want {
		b.Fatalf("session saw %d lines, want %d", info.TotalLines, want)
	}
	if _, err := svc.Close(ctx, owner, s.ID, "bench"); err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkIngest compares the rate at which a session moves a flood into
// its scrollback with a bare creack/pty read into io.Discard, in the same
// run (PTYSEAM_BENCH_INGEST_MB, default 200). It also reports this
// process's CPU time per MiB on each side (the reader's work: a session's
// read loop, scrollback and taps against the bare read's system calls),
// which moves less from run to run than the throughput on a shared
// machine.
func BenchmarkIngest(b *testing.B) {
	size := envInt("PTYSEAM_BENCH_INGEST_MB", 200) << 20
	size -= size % 80
	argv := generator(size)
	svc := newService(b, core.Options{})
	var raw, sess, rawCPU, sessCPU time.Duration
	for b.Loop() {
		// Interleave and keep the best of three of each, so that noise
		// from other processes hits both sides alike.
		r, s := time.Duration(1<<62), time.Duration(1<<62)
		for range 3 {
			c0 := cpuTime()
			r = min(r, rawIngest(b, argv))
			c1 := cpuTime()
			s = min(s, sessionIngest(b, svc, argv, size))
			rawCPU += c1 - c0
			sessCPU += cpuTime() - c1
		}
		raw += r
		sess += s
	}
	mb := float64(size) / (1 << 20) * float64(b.N)
	b.ReportMetric(mb/raw.Seconds(), "raw-MB/s")
	b.ReportMetric(mb/sess.Seconds(), "session-MB/s")
	b.ReportMetric(raw.Seconds()/sess.Seconds(), "ratio")
	b.ReportMetric(float64(rawCPU.Microseconds())/1000/(3*mb), "raw-cpu-ms/MiB")
	b.ReportMetric(float64(sessCPU.Microseconds())/1000/(3*mb), "session-cpu-ms/MiB")
}
