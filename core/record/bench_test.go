package record_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// BenchmarkIngest measures a session printing 16 MiB of text lines, as
// the service takes it in, without and with a recording of it: the cost
// of recording is the ratio of the two (docs/supervision.md).
func BenchmarkIngest(b *testing.B) {
	const size = 16 << 20
	file := filepath.Join(b.TempDir(), "out.txt")
	line := bytes.Repeat([]byte("0123456789abcdef"), 5)
	var buf bytes.Buffer
	for buf.Len() < size {
		buf.Write(line)
		buf.WriteString("\r\n")
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"plain", "recorded"} {
		b.Run(mode, func(b *testing.B) {
			var svc *core.Service
			if mode == "recorded" {
				svc, _ = recorded(b, true)
			} else {
				svc = core.New(core.Options{})
				if err := localpty.Register(svc); err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
			}
			owner := core.NewOwner("bench")
			b.SetBytes(int64(buf.Len()))
			cpu0 := cpuTime()
			b.ResetTimer()
			for range b.N {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"cat", file}, NoInitialWait: true})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
					b.Fatal(err)
				}
				if _, err := svc.Close(ctx, owner, s.ID, "done"); err != nil {
					b.Fatal(err)
				}
				cancel()
			}
			b.StopTimer()
			// CPU time of this process (the service's reader, scrollback,
			// taps and the recorder) per MiB: on a busy machine wall time
			// measures the neighbours, CPU time measures the work.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(buf.Len()>>20)/1e3, "cpu-µs/MiB")
		})
	}
}

// cpuTime returns the user and system CPU time of this process.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
