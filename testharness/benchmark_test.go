package testharness_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/testharness"
)

// BenchmarkSendPromptRegistryVsService sends one line to a marker-prompt
// REPL on the registry and on the real service per iteration and reports
// the time per send of each, their ratio, and the share of sends that
// settled before the prompt came back (which should be 0): both settle on
// the prompt marker.
func BenchmarkSendPromptRegistryVsService(b *testing.B) {
	ctx := context.Background()
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if err := localpty.Register(svc); err != nil {
		b.Fatal(err)
	}
	defer svc.Shutdown(ctx)
	reg := testharness.NewRegistry(localpty.NewExec(localpty.ExecOptions{}))
	defer reg.Shutdown(ctx)
	req := core.SpawnRequest{Type: "exec", Command: testharness.Child(b, "echo-repl", "--marker")}
	type target struct {
		name    string
		terms   core.Terminals
		owner   *core.Owner
		id      core.SessionID
		elapsed time.Duration
		early   int // sends that settled before the prompt came back
	}
	targets := []*target{{name: "registry", terms: reg}, {name: "service", terms: svc}}
	for _, tg := range targets {
		tg.owner = core.NewOwner("bench")
		res, err := tg.terms.Spawn(ctx, tg.owner, req)
		if err != nil {
			b.Fatal(err)
		}
		tg.id = res.ID
	}
	b.ResetTimer()
	for b.Loop() {
		for _, tg := range targets {
			start := time.Now()
			op, err := tg.terms.Send(ctx, tg.owner, tg.id, core.SendRequest{Data: "ping"})
			if err != nil {
				b.Fatal(err)
			}
			res, err := op.Wait(ctx)
			if err != nil {
				b.Fatalf("%s: %v", tg.name, err)
			}
			tg.elapsed += time.Since(start)
			if res.WaitReason != core.WaitPrompt {
				// Settled before the answer and the prompt arrived (a
				// service bug at the time of writing): let them arrive.
				tg.early++
				time.Sleep(20 * time.Millisecond)
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(targets[0].elapsed.Nanoseconds())/n, "registry-ns/send")
	b.ReportMetric(float64(targets[1].elapsed.Nanoseconds())/n, "service-ns/send")
	b.ReportMetric(float64(targets[0].elapsed)/float64(targets[1].elapsed), "registry/service")
	b.ReportMetric(float64(targets[0].early)/n, "registry-early/send")
	b.ReportMetric(float64(targets[1].early)/n, "service-early/send")
}
