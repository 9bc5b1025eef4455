package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
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
// run (PTYSEAM_BENCH_INGEST_MB, default 200). Each iteration makes
// PTYSEAM_BENCH_INGEST_RUNS interleaved runs (default 5), one flood a
// side, the side that goes first alternating, so that a stretch of load
// from other processes hits both sides alike; it reports the median
// ratio of the runs with their min and max (ratio-min, ratio-max), and
// the median throughputs. It also reports this process's CPU time per
// MiB on each side (the reader's work: a session's read loop, scrollback
// and taps against the bare read's system calls), which moves less from
// run to run than the throughput on a shared machine.
func BenchmarkIngest(b *testing.B) {
	size := envInt("PTYSEAM_BENCH_INGEST_MB", 200) << 20
	size -= size % 80
	runs := envInt("PTYSEAM_BENCH_INGEST_RUNS", 5)
	argv := generator(size)
	svc := newService(b, core.Options{})
	mb := float64(size) / (1 << 20)
	var ratios, rawMBs, sessMBs []float64
	var rawCPU, sessCPU time.Duration
	for b.Loop() {
		for i := range runs {
			var r, s time.Duration
			raw := func() {
				c0 := cpuTime()
				r = rawIngest(b, argv)
				rawCPU += cpuTime() - c0
			}
			sess := func() {
				c0 := cpuTime()
				s = sessionIngest(b, svc, argv, size)
				sessCPU += cpuTime() - c0
			}
			if i%2 == 0 {
				raw()
				sess()
			} else {
				sess()
				raw()
			}
			ratios = append(ratios, r.Seconds()/s.Seconds())
			rawMBs = append(rawMBs, mb/r.Seconds())
			sessMBs = append(sessMBs, mb/s.Seconds())
		}
	}
	b.ReportMetric(median(rawMBs), "raw-MB/s")
	b.ReportMetric(median(sessMBs), "session-MB/s")
	b.ReportMetric(median(ratios), "ratio")
	b.ReportMetric(slices.Min(ratios), "ratio-min")
	b.ReportMetric(slices.Max(ratios), "ratio-max")
	b.ReportMetric(float64(rawCPU.Microseconds())/1000/(mb*float64(len(ratios))), "raw-cpu-ms/MiB")
	b.ReportMetric(float64(sessCPU.Microseconds())/1000/(mb*float64(len(ratios))), "session-cpu-ms/MiB")
}
