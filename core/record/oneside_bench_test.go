package record_test

import (
	"context"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/record"
)

// BenchmarkOneSide runs BenchmarkIngest's session (16 MiB of text
// lines through cat) on one kind of service only, plain or recorded, one
// session per iteration: a CPU profile of each (-cpuprofile, perf record)
// then shows one side's work, whose difference is what recording costs.
// It reports the process's CPU time per MiB (cpu-µs/MiB). Its name leaves
// it out of `-bench Ingest` (make bench).
func BenchmarkOneSide(b *testing.B) {
	file, fileSize := ingestFile(b)
	mib := float64(fileSize) / (1 << 20)
	for _, side := range []string{"plain", "recorded"} {
		b.Run(side, func(b *testing.B) {
			var svc *core.Service
			var rec *record.Recorder
			if side == "plain" {
				svc = plainService(b)
			} else {
				svc, rec = recorded(b, true)
			}
			owner := core.NewOwner("bench")
			b.SetBytes(fileSize)
			cpu0 := cpuTime()
			b.ResetTimer()
			for range b.N {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				ingestOnce(ctx, b, svc, rec, owner, file)
				cancel()
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N)/mib, "cpu-µs/MiB")
		})
	}
}
