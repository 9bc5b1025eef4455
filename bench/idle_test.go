package bench

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIdle opens PTYSEAM_BENCH_IDLE_N idle shell sessions (default
// 200) and measures the library process's CPU over PTYSEAM_BENCH_IDLE_S
// seconds (default 10) as a percentage of one core, and the heap per
// session.
func BenchmarkIdle(b *testing.B) {
	n := envInt("PTYSEAM_BENCH_IDLE_N", 200)
	secs := envInt("PTYSEAM_BENCH_IDLE_S", 10)
	svc := newService(b, core.Options{})
	owner := core.NewOwner("bench")
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		if _, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	var pct float64
	for b.Loop() {
		c0, t0 := cpuTime(), time.Now()
		time.Sleep(time.Duration(secs) * time.Second)
		pct = 100 * float64(cpuTime()-c0) / float64(time.Since(t0))
	}
	b.ReportMetric(pct, "cpu-%-of-core")
	b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/float64(n)/1024, "heap-KiB/session")
	b.ReportMetric(float64(n), "sessions")
}
