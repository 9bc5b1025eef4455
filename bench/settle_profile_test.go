package bench

import (
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// BenchmarkSettleSeam is the seam's side of BenchmarkSettle alone, one
// send of `true` per iteration on a marked bash, for profiling the hot
// path (go test -bench SettleSeam -cpuprofile/-memprofile): its ns/op and
// allocs/op are those of a send and its settle.
func BenchmarkSettleSeam(b *testing.B) {
	svc := newService(b, core.Options{})
	owner := core.NewOwner("bench")
	ctx := context.Background()
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: "true"})
		if err != nil {
			b.Fatal(err)
		}
		res, err := op.Wait(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if res.WaitReason != core.WaitPrompt {
			b.Fatalf("settled on %s, want prompt", res.WaitReason)
		}
	}
}
