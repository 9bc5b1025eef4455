package remote_test

import (
	"context"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
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
		op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: line, QuietWindow: 10 * time.Second})
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

// BenchmarkRemoteSessions opens PTYSEAM_BENCH_REMOTE_SESSIONS (default
// 50) shells on one agent over a pipe, each settled on its first prompt,
// and reports the open latency (p50, p99) and the agent's resident memory
// per session (its RSS with the sessions open, less its RSS before, over
// the count); then closes them all.
func BenchmarkRemoteSessions(b *testing.B) {
	n := envInt("PTYSEAM_BENCH_REMOTE_SESSIONS", 50)
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
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if _, err := svc.Register(c.Backend("shell", remote.AgentShell)); err != nil {
		b.Fatal(err)
	}
	defer svc.Shutdown(context.Background())
	owner := core.NewOwner("bench")
	var opens []time.Duration
	var perSession float64
	for b.Loop() {
		before := rssKiB(b, c.Info().PID)
		var ids []core.SessionID
		for range n {
			start := time.Now()
			s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
			if err != nil {
				b.Fatal(err)
			}
			opens = append(opens, time.Since(start))
			ids = append(ids, s.ID)
		}
		perSession = float64(rssKiB(b, c.Info().PID)-before) / float64(n)
		for _, id := range ids {
			if _, err := svc.Close(ctx, owner, id, "bench"); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(ms(pct(opens, 50)), "open-p50-ms")
	b.ReportMetric(ms(pct(opens, 99)), "open-p99-ms")
	b.ReportMetric(perSession, "agent-KiB/session")
}

// rssKiB reads a process's resident set size.
func rssKiB(b *testing.B, pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			v, _ := strconv.Atoi(f[0])
			return v
		}
	}
	b.Fatal("no VmRSS")
	return 0
}
