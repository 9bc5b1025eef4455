package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// retained opens a session holding lines retained lines and returns it.
func retained(b *testing.B, svc *core.Service, owner *core.Owner, lines int) core.SessionID {
	ctx := context.Background()
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{
		Type:          "exec",
		Command:       []string{"seq", fmt.Sprint(lines)},
		NoInitialWait: true,
		Scrollback:    core.ScrollbackLimits{MaxLines: lines, MaxBytes: 64 << 20},
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
		b.Fatal(err)
	}
	info, _ := svc.Info(owner, s.ID)
	if info.TotalLines != int64(lines) {
		b.Fatalf("retained %d lines, want %d", info.TotalLines, lines)
	}
	return s.ID
}

func pageCost(b *testing.B, svc *core.Service, owner *core.Owner, id core.SessionID, lines, iters int) time.Duration {
	start := time.Now()
	for i := range iters {
		from := int64((i * 7919) % (lines - 100))
		p, err := svc.Read(owner, id, core.PageRequest{Start: from, Count: 100})
		if err != nil || len(p.Lines) != 100 {
			b.Fatalf("page: %d lines, %v", len(p.Lines), err)
		}
	}
	return time.Since(start) / time.Duration(iters)
}

// BenchmarkPage compares the cost of a 100-line page with 1,000 and with
// 1,000,000 lines retained.
func BenchmarkPage(b *testing.B) {
	svc := newService(b, core.Options{})
	owner := core.NewOwner("bench")
	small := retained(b, svc, owner, 1_000)
	large := retained(b, svc, owner, 1_000_000)
	var s, l time.Duration
	for b.Loop() {
		s = pageCost(b, svc, owner, small, 1_000, 20_000)
		l = pageCost(b, svc, owner, large, 1_000_000, 20_000)
	}
	b.ReportMetric(float64(s.Nanoseconds())/1000, "page-1k-us")
	b.ReportMetric(float64(l.Nanoseconds())/1000, "page-1M-us")
	b.ReportMetric(float64(l)/float64(s), "ratio")
}
