package record_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
)

// BenchmarkOneSide runs BenchmarkIngest's session (16 MiB of text
// lines through cat) on one kind of service only, plain or recorded, one
// session per iteration: a CPU profile of each (-cpuprofile, perf record)
// then shows one side's work, whose difference is what recording costs.
// It reports the process's CPU time per MiB (cpu-µs/MiB). Its name leaves
// it out of `-bench Ingest` (make bench).
func BenchmarkOneSide(b *testing.B) {
	const size = 16 << 20
	file := filepath.Join(b.TempDir(), "out.txt")
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	if err := os.WriteFile(file, bytes.Repeat(line, size/len(line)+1), 0o644); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		b.Fatal(err)
	}
	mib := float64(fi.Size()) / (1 << 20)
	runtime.GC()
	for _, side := range []string{"plain", "recorded"} {
		b.Run(side, func(b *testing.B) {
			var svc *core.Service
			var rec *record.Recorder
			if side == "plain" {
				svc = core.New(core.Options{})
				if err := localpty.Register(svc); err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
			} else {
				svc, rec = recorded(b, true)
			}
			owner := core.NewOwner("bench")
			b.SetBytes(fi.Size())
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
				if rec != nil {
					if err := rec.Wait(ctx, s.ID); err != nil {
						b.Fatal(err)
					}
				}
				cancel()
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N)/mib, "cpu-µs/MiB")
		})
	}
}
