package bench

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// BenchmarkLiveSessions opens PTYSEAM_BENCH_LIVE_N shell sessions (default
// 1,000) and has each send `true` once a second, the sessions' ticks spread
// evenly over the second, for PTYSEAM_BENCH_LIVE_S seconds (default 20). It
// reports the server's CPU over that stretch (this process's CPU time over
// the wall time, as a percentage of one core: the service, its sessions'
// read loops and the senders; the shells are not counted) and the p50 and
// p99 of the sends' settle times (Send to the settled result). Every send
// must settle on the prompt.
func BenchmarkLiveSessions(b *testing.B) {
	n := envInt("PTYSEAM_BENCH_LIVE_N", 1000)
	secs := envInt("PTYSEAM_BENCH_LIVE_S", 20)
	svc := newService(b, core.Options{})
	owner := core.NewOwner("bench")
	ctx := context.Background()
	ids := make([]core.SessionID, n)
	// Opened a few at a time: the opens are not what is measured.
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			ids[i] = s.ID
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		b.Fatalf("%d of %d spawns failed, the first: %v", len(errs), n, errs[0])
	}
	var settle []time.Duration
	reasons := map[core.WaitReason]int{}
	var pct float64
	for b.Loop() {
		c0, t0 := cpuTime(), time.Now()
		end := t0.Add(time.Duration(secs) * time.Second)
		for i, id := range ids {
			wg.Go(func() {
				next := t0.Add(time.Duration(i) * time.Second / time.Duration(n))
				for next.Before(end) {
					time.Sleep(time.Until(next))
					start := time.Now()
					op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: "true"})
					var res core.SendResult
					if err == nil {
						res, err = op.Wait(ctx)
					}
					d := time.Since(start)
					mu.Lock()
					if err != nil {
						errs = append(errs, err)
					} else {
						settle = append(settle, d)
						reasons[res.WaitReason]++
					}
					mu.Unlock()
					next = next.Add(time.Second)
				}
			})
		}
		wg.Wait()
		pct = 100 * float64(cpuTime()-c0) / float64(time.Since(t0))
	}
	if len(errs) > 0 {
		b.Fatalf("%d sends failed, the first: %v", len(errs), errs[0])
	}
	if reasons[core.WaitPrompt] != len(settle) {
		b.Errorf("not every send settled on the prompt: %v", reasons)
	}
	b.ReportMetric(pct, "cpu-%-of-core")
	b.ReportMetric(ms(percentile(settle, 50)), "settle-p50-ms")
	b.ReportMetric(ms(percentile(settle, 99)), "settle-p99-ms")
	b.ReportMetric(float64(len(settle))/float64(b.N*secs), "sends/s")
	b.ReportMetric(float64(n), "sessions")
}
