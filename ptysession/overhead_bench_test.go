package ptysession

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// benchSession opens a session on the real service that echoes each line
// back (cat on the exec backend).
func benchSession(b *testing.B) (*Sessions, *core.Service, *core.Owner, core.SessionID) {
	b.Helper()
	s := New(newBenchService(b), Options{Backend: "exec"})
	owner := core.NewOwner("bench")
	r, err := s.Open(context.Background(), owner, OpenRequest{Command: "cat"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _, _ = s.Close(context.Background(), owner, r.SessionID) })
	return s, s.t.(*core.Service), owner, r.SessionID
}

func newBenchService(b *testing.B) *core.Service {
	b.Helper()
	svc := core.New(core.Options{Logger: quietLogger()})
	if err := registerLocal(svc); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = svc.Shutdown(ctx)
	})
	return svc
}

// BenchmarkSendRoundTrip measures a facade send (a line to cat and its
// echo back, settled by the stdin_read tier) against the same send on the
// seam directly; "facade/seam" is the ratio of their times.
func BenchmarkSendRoundTrip(b *testing.B) {
	s, svc, owner, id := benchSession(b)
	ctx := context.Background()
	const n = 200
	start := time.Now()
	for range n {
		op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: "x"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := op.Wait(ctx); err != nil {
			b.Fatal(err)
		}
	}
	seam := time.Since(start) / n
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Send(ctx, owner, id, SendRequest{Data: "x"}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	facade := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(seam.Microseconds()), "seam-µs/op")
	b.ReportMetric(float64(facade)/float64(seam), "facade/seam")
}

// BenchmarkTail measures a tail of about 100 new lines through the facade
// against a page read of the newest 200 lines on the seam; "tail/read" is
// the ratio. The lines come from a send on the seam (which leaves the
// tail position where it is), outside the timed part.
func BenchmarkTail(b *testing.B) {
	s, svc, owner, id := benchSession(b)
	ctx := context.Background()
	for i := range 100 {
		if _, err := s.Send(ctx, owner, id, SendRequest{Data: fmt.Sprintf("line %d", i)}); err != nil {
			b.Fatal(err)
		}
	}
	const n = 2000
	start := time.Now()
	for range n {
		if _, err := svc.Read(owner, id, core.PageRequest{Newest: true, Count: 200}); err != nil {
			b.Fatal(err)
		}
	}
	read := time.Since(start) / n
	lines := strings.Repeat("line\n", 50) // cat echoes each and prints it back
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: lines, NoSubmit: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := op.Wait(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Tail(ctx, owner, id, 200); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	tail := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(read.Nanoseconds()), "read-ns/op")
	b.ReportMetric(float64(tail)/float64(read), "tail/read")
}

// BenchmarkSendOnAFullScrollback measures a facade send (`true` to an
// interactive bash) on a session whose scrollback holds its whole line
// bound, against the same send on a new session, interleaved:
// "full/new" is the ratio of their medians. A send reads only its own
// output, so the retained lines cost nothing.
func BenchmarkSendOnAFullScrollback(b *testing.B) {
	s := New(newBenchService(b), Options{})
	owner := core.NewOwner("bench")
	ctx := context.Background()
	open := func() core.SessionID {
		r, err := s.Open(ctx, owner, OpenRequest{Command: "bash"})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _, _ = s.Close(context.Background(), owner, r.SessionID) })
		return r.SessionID
	}
	send := func(id core.SessionID, data string) time.Duration {
		start := time.Now()
		if _, err := s.Send(ctx, owner, id, SendRequest{Data: data}); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	full, fresh := open(), open()
	send(full, "seq 1 12000") // past the default bound of 10,000 lines
	var onFull, onNew []time.Duration
	for b.Loop() {
		for range 200 {
			onFull = append(onFull, send(full, "true"))
			onNew = append(onNew, send(fresh, "true"))
		}
	}
	slices.Sort(onFull)
	slices.Sort(onNew)
	f, n := onFull[len(onFull)/2], onNew[len(onNew)/2]
	b.ReportMetric(float64(f)/1e6, "full-p50-ms")
	b.ReportMetric(float64(n)/1e6, "new-p50-ms")
	b.ReportMetric(float64(f)/float64(n), "full/new")
}
