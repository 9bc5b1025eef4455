package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// BenchmarkSendInProcess is `pty_send "true"` on an interactive bash and
// the no-op `pty_list`, through the tool server and the Go SDK's client
// over its in-memory transport: what the server adds to a send beyond the
// transport, for profiling (go test -bench SendInProcess -cpuprofile, or
// -memprofile; compare the send's allocs/op with the list's). send-15k
// prints 15 KB of prose (the GPL's start) per send, where encoding the
// result weighs more.
func BenchmarkSendInProcess(b *testing.B) {
	cfg, err := parseConfig(nil, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	cs := benchConnect(b, cfg)
	id := sessionOf(b, benchCall(b, cs, "pty_open", map[string]any{"command": "bash"}))
	defer benchCall(b, cs, "pty_close", map[string]any{"id": id})
	b.Run("send", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchCall(b, cs, "pty_send", map[string]any{"id": id, "data": "true"})
		}
	})
	b.Run("send-15k", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchCall(b, cs, "pty_send", map[string]any{"id": id, "data": "head -c 15000 /usr/share/common-licenses/GPL-3"})
		}
	})
	b.Run("list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchCall(b, cs, "pty_list", nil)
		}
	})
}

// BenchmarkSendLayers times `true` on an interactive bash at each layer of
// the server, interleaved: the seam's Send and Wait, the facade's Send,
// and pty_send through the dispatcher (validation, decoding, the screen's
// full-screen check, rendering, bounding); no transport.
func BenchmarkSendLayers(b *testing.B) {
	cfg, err := parseConfig(nil, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	ts, err := newToolServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = ts.shutdown(ctx)
	}()
	ctx := context.Background()
	owner := core.NewOwner("bench")
	r, err := ts.sessions.Open(ctx, owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		b.Fatal(err)
	}
	id := r.SessionID
	args := json.RawMessage(`{"id":"` + string(id) + `","data":"true"}`)
	var seam, facade, dispatch []time.Duration
	for b.Loop() {
		for range 300 {
			start := time.Now()
			op, err := ts.svc.Send(ctx, owner, id, core.SendRequest{Data: "true"})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := op.Wait(ctx); err != nil {
				b.Fatal(err)
			}
			seam = append(seam, time.Since(start))
			start = time.Now()
			if _, err := ts.sessions.Send(ctx, owner, id, ptysession.SendRequest{Data: "true"}); err != nil {
				b.Fatal(err)
			}
			facade = append(facade, time.Since(start))
			start = time.Now()
			if _, err := ts.disp.Call(ctx, owner, "pty_send", args, tools.CallOptions{}); err != nil {
				b.Fatal(err)
			}
			dispatch = append(dispatch, time.Since(start))
		}
	}
	med := func(s []time.Duration) float64 {
		slices.Sort(s)
		return float64(s[len(s)/2]) / 1e6
	}
	b.ReportMetric(med(seam), "seam-p50-ms")
	b.ReportMetric(med(facade), "facade-p50-ms")
	b.ReportMetric(med(dispatch), "dispatch-p50-ms")
}
