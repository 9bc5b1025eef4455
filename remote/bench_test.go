package remote_test

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/remote"
)

// BenchmarkRemoteSettle measures a send of `true` on an interactive bash
// settling on its prompt, through a local shell session and through the
// same shell on an agent over a pipe, interleaved in one run, and a
// Python REPL's `6*7` settling on stdin_read both ways.
// PTYSEAM_BENCH_REMOTE_N sets the samples per side (default 500).
func BenchmarkRemoteSettle(b *testing.B) {
	n := envInt("PTYSEAM_BENCH_REMOTE_N", 500)
	local := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if _, err := local.Register(localpty.NewShell(localpty.ShellOptions{})); err != nil {
		b.Fatal(err)
	}
	defer local.Shutdown(context.Background())
	a := startAgentB(b)
	ctx := context.Background()
	c, err := remote.Connect(ctx, a.stream)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = c.Close()
		<-a.done
	}()
	far := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if _, err := far.Register(c.Backend("shell", remote.AgentShell)); err != nil {
		b.Fatal(err)
	}
	defer far.Shutdown(context.Background())
	owner := core.NewOwner("bench")
	spawn := func(svc *core.Service) core.SessionID {
		s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
		if err != nil {
			b.Fatal(err)
		}
		return s.ID
	}
	send := func(svc *core.Service, id core.SessionID, line string, want core.WaitReason) time.Duration {
		start := time.Now()
		op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: []byte(line), Submit: true, QuietWindow: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		res, err := op.Wait(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if res.WaitReason != want {
			b.Fatalf("%q settled as %s, want %s", line, res.WaitReason, want)
		}
		return time.Since(start)
	}
	lid, rid := spawn(local), spawn(far)
	var lTrue, rTrue, lPy, rPy []time.Duration
	for b.Loop() {
		for range n {
			lTrue = append(lTrue, send(local, lid, "true", core.WaitPrompt))
			rTrue = append(rTrue, send(far, rid, "true", core.WaitPrompt))
		}
		send(local, lid, "python3 -q", core.WaitStdinRead)
		send(far, rid, "python3 -q", core.WaitStdinRead)
		for range n / 5 {
			lPy = append(lPy, send(local, lid, "6*7", core.WaitStdinRead))
			rPy = append(rPy, send(far, rid, "6*7", core.WaitStdinRead))
		}
		send(local, lid, "exit()", core.WaitPrompt)
		send(far, rid, "exit()", core.WaitPrompt)
	}
	b.ReportMetric(ms(pct(lTrue, 50)), "local-true-p50-ms")
	b.ReportMetric(ms(pct(rTrue, 50)), "remote-true-p50-ms")
	b.ReportMetric(ms(pct(lTrue, 99)), "local-true-p99-ms")
	b.ReportMetric(ms(pct(rTrue, 99)), "remote-true-p99-ms")
	b.ReportMetric(float64(pct(rTrue, 50))/float64(pct(lTrue, 50)), "remote/local-true-p50")
	b.ReportMetric(ms(pct(lPy, 50)), "local-py-p50-ms")
	b.ReportMetric(ms(pct(rPy, 50)), "remote-py-p50-ms")
	b.ReportMetric(float64(pct(rPy, 50))/float64(pct(lPy, 50)), "remote/local-py-p50")
}

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
