package bench

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// BenchmarkFloodMemory floods a session with `yes` for PTYSEAM_BENCH_FLOOD_S
// seconds (default 10) and reports the peak heap growth against the
// configured scrollback byte bound.
func BenchmarkFloodMemory(b *testing.B) {
	secs := envInt("PTYSEAM_BENCH_FLOOD_S", 10)
	svc := newService(b, core.Options{})
	bound := svc.Options().Scrollback.MaxBytes
	owner := core.NewOwner("bench")
	ctx := context.Background()
	var peak uint64
	var base runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&base)
		s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: []string{"yes"}, NoInitialWait: true})
		if err != nil {
			b.Fatal(err)
		}
		deadline := time.Now().Add(time.Duration(secs) * time.Second)
		var ms runtime.MemStats
		for time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > base.HeapInuse && ms.HeapInuse-base.HeapInuse > peak {
				peak = ms.HeapInuse - base.HeapInuse
			}
		}
		info, _ := svc.Info(owner, s.ID)
		b.ReportMetric(float64(info.TotalLines)/float64(secs), "lines/s")
		if _, err := svc.Close(ctx, owner, s.ID, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(peak)/float64(bound), "heap/bound")
}
