package bench

import (
	"context"
	"syscall"
	"testing"
	"time"

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
	defer reportCPU(b)()
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

// BenchmarkSettleGoExpect and BenchmarkSettleRaw are BenchmarkSettle's
// peers alone, one round trip of `true` per iteration, for comparing what
// each side costs the process (run under /usr/bin/time or with
// -cpuprofile: CPU time per round trip is less moved by other load on the
// machine than the latency).
func BenchmarkSettleGoExpect(b *testing.B) {
	exp := startExpectShell(b)
	defer exp.close()
	defer reportCPU(b)()
	for b.Loop() {
		exp.roundTrip(b)
	}
}

// BenchmarkSettleRaw: see BenchmarkSettleGoExpect.
func BenchmarkSettleRaw(b *testing.B) {
	raw := startRawShell(b)
	defer raw.close()
	defer reportCPU(b)()
	for b.Loop() {
		raw.roundTrip(b)
	}
}

// reportCPU reports the CPU time the process (all its threads, not the
// shell) spent per iteration, from the call to the returned function's.
func reportCPU(b *testing.B) func() {
	start := selfCPU(b)
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(selfCPU(b)-start)/float64(time.Microsecond)/float64(b.N), "cpu-us/op")
		}
	}
}

func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
