package jobtools

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// Readiness waits of bg_launch.
const (
	// DefaultReadyTimeout bounds a readiness wait that names no timeout.
	DefaultReadyTimeout = 15 * time.Second
	// MaxReadyTimeout bounds every readiness wait.
	MaxReadyTimeout = 60 * time.Second
	// readyPortEvery is how often a port is tried while nothing is
	// printed (a server may start listening silently).
	readyPortEvery = 100 * time.Millisecond
)

// ReadyOut says whether a launched job became ready (bg_launch's ready).
type ReadyOut struct {
	// Ready reports that the condition was met.
	Ready bool `json:"ready"`
	// By names what was met: "url", "port" or "line".
	By string `json:"by,omitempty"`
	// Detail is the address found, the port, or the matching line.
	Detail string `json:"detail,omitempty"`
	// Reason says why the wait ended unready: "timeout", "exited" or
	// "cancelled".
	Reason string `json:"reason,omitempty"`
	// WaitedMs is how long the wait took.
	WaitedMs int64 `json:"waitedMs"`
}

// validate checks a waitFor (its line as pty_wait checks a pattern) and
// returns its bound.
func (r *readyArgs) validate() (time.Duration, error) {
	if !r.URL && r.Port == 0 && r.Line == "" {
		return 0, tools.InvalidArgument("waitFor", "name url, port or line")
	}
	if r.Port < 0 || r.Port > 65535 {
		return 0, tools.InvalidArgument("waitFor.port", "must be 1 to 65535")
	}
	if r.Line != "" {
		if _, err := ptysession.CompileWaitPattern("waitFor.line", r.Line, true); err != nil {
			return 0, toolError(err)
		}
	}
	d := time.Duration(r.TimeoutMs) * time.Millisecond
	switch {
	case r.TimeoutMs < 0:
		return 0, tools.InvalidArgument("waitFor.timeoutMs", "must not be negative")
	case d == 0:
		d = DefaultReadyTimeout
	case d > MaxReadyTimeout:
		return 0, tools.InvalidArgument("waitFor.timeoutMs", "at most %d", MaxReadyTimeout.Milliseconds())
	}
	return d, nil
}

// awaitReady waits until job id meets w (any of its conditions), ends, or
// the wait's bound or ctx ends. It checks the line and the port as
// pty_wait does (ptysession.Watch), waking on the job's output and exit
// events, and every readyPortEvery for a port.
func (h handlers) awaitReady(ctx context.Context, owner *core.Owner, id string, w readyArgs, bound time.Duration) ReadyOut {
	start := time.Now()
	done := func(out ReadyOut) ReadyOut {
		out.WaitedMs = time.Since(start).Milliseconds()
		return out
	}
	// The line (from the job's first line on) and the port as pty_wait's
	// conditions; NewWatch refuses the one not asked for (no pattern, port
	// 0), validate the bad ones.
	var watches []*ptysession.Watch
	first := int64(0)
	for _, c := range []ptysession.WaitCondition{
		{Kind: ptysession.WaitOutput, Target: id, Pattern: w.Line, FromLine: &first},
		{Kind: ptysession.WaitPort, Port: w.Port},
	} {
		if wt, err := ptysession.NewWatch(c, jobWatcher{m: h.m, owner: owner, id: id}); err == nil {
			watches = append(watches, wt)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	wake := make(chan struct{}, 1)
	unsub := h.m.Subscribe(func(ev jobs.Event) {
		if ev.ID == id {
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}, jobs.EventData, jobs.EventExit, jobs.EventDropped)
	defer unsub()
	var tick <-chan time.Time
	if w.Port > 0 {
		t := time.NewTicker(readyPortEvery)
		defer t.Stop()
		tick = t.C
	}
	for {
		if out, ok := h.readyNow(ctx, owner, id, w.URL, watches); ok {
			return done(out)
		}
		select {
		case <-wake:
		case <-tick:
		case <-ctx.Done():
			if ctx.Err() == context.DeadlineExceeded {
				return done(ReadyOut{Reason: "timeout"})
			}
			return done(ReadyOut{Reason: "cancelled"})
		}
	}
}

// readyNow checks the conditions once. It reports true when the wait is
// over: ready, or the job ended.
func (h handlers) readyNow(ctx context.Context, owner *core.Owner, id string, url bool, watches []*ptysession.Watch) (ReadyOut, bool) {
	info, err := h.m.Get(owner, id)
	if err != nil {
		return ReadyOut{Reason: "exited"}, true
	}
	if url && len(info.Services) > 0 {
		return ReadyOut{Ready: true, By: "url", Detail: info.Services[0]}, true
	}
	for _, wt := range watches {
		res, ok, err := wt.Check(ctx)
		switch {
		case err != nil || !ok:
		case res.Port > 0:
			return ReadyOut{Ready: true, By: "port", Detail: strconv.Itoa(res.Port)}, true
		default:
			return ReadyOut{Ready: true, By: "line", Detail: tools.BoundHead(res.Line, 1024)}, true
		}
	}
	if info.State.Final() {
		return ReadyOut{Reason: "exited"}, true
	}
	return ReadyOut{}, false
}

// renderReady is the line bg_launch adds for a readiness wait.
func renderReady(r ReadyOut) string {
	if r.Ready {
		return fmt.Sprintf("\nready after %d ms: %s %s", r.WaitedMs, r.By, r.Detail)
	}
	return fmt.Sprintf("\nNOT ready after %d ms (%s): read its output with bg_read", r.WaitedMs, r.Reason)
}

// LaunchOut is bg_launch's structured result: the job, and the outcome of
// its readiness wait when waitFor was given.
type LaunchOut struct {
	JobBrief
	// Ready is the readiness wait's outcome (nil without waitFor).
	Ready *ReadyOut `json:"ready,omitempty"`
}
