package bench

import (
	"context"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// liveHeapPaused stops the flooding process, lets the session's reader
// drain what the terminal holds, collects, and returns the live heap; the
// process is continued before it returns.
func liveHeapPaused(pid int) uint64 {
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	defer syscall.Kill(pid, syscall.SIGCONT)
	time.Sleep(20 * time.Millisecond)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkFloodMemory floods a session with `yes` printing 1 KiB lines (so
// that the byte bound, not the line bound, is what holds) for
// PTYSEAM_BENCH_FLOOD_S seconds (default 10) and reports the peak growth of
// the live heap (after a collection, the flood paused) against the
// configured scrollback byte bound, and of the heap in use (garbage
// included, which GOGC lets reach about twice the live heap between
// collections).
func BenchmarkFloodMemory(b *testing.B) {
	secs := envInt("PTYSEAM_BENCH_FLOOD_S", 10)
	svc := newService(b, core.Options{})
	bound := svc.Options().Scrollback.MaxBytes
	owner := core.NewOwner("bench")
	ctx := context.Background()
	var peak, peakInuse uint64 // live heap after GC; heap in use, garbage included
	var base runtime.MemStats
	n := 0
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&base)
		s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: []string{"yes", strings.Repeat("y", 1023)}, NoInitialWait: true})
		if err != nil {
			b.Fatal(err)
		}
		deadline := time.Now().Add(time.Duration(secs) * time.Second)
		var ms runtime.MemStats
		for time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > base.HeapInuse && ms.HeapInuse-base.HeapInuse > peakInuse {
				peakInuse = ms.HeapInuse - base.HeapInuse
			}
			if n++; n%5 == 0 {
				// What the library holds: the live heap after a
				// collection, garbage not counted. The flood is paused
				// (SIGSTOP) and the terminal drained first: bytes
				// allocated while the collection runs would otherwise
				// count as live.
				if alloc := liveHeapPaused(s.PID); alloc > base.HeapAlloc && alloc-base.HeapAlloc > peak {
					peak = alloc - base.HeapAlloc
				}
			}
		}
		info, _ := svc.Info(owner, s.ID)
		b.ReportMetric(float64(info.TotalLines)/float64(secs), "lines/s")
		if _, err := svc.Close(ctx, owner, s.ID, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-live-MiB")
	b.ReportMetric(float64(peak)/float64(bound), "live/bound")
	b.ReportMetric(float64(peakInuse)/float64(bound), "inuse/bound")
}
