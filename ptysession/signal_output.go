package ptysession

import (
	"context"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// How long Signal watches for the output a signal caused: up to
// signalFirstOutput for the program to print something, then until
// signalQuiet passed without output, signalMaxWait in all.
const (
	signalFirstOutput = 2 * time.Second
	signalQuiet       = 250 * time.Millisecond
	signalMaxWait     = 5 * time.Second
	// signalInputPoll is how often Signal asks whether the session waits
	// for input again after a job was signalled (nothing announces that a
	// program blocked in a read).
	signalInputPoll = 5 * time.Millisecond
)

// tapper is implemented by terminals that stream a session's raw output
// (the real service; the reference registry does not).
type tapper interface {
	Tap(owner *core.Owner, id core.SessionID) (*core.Tap, error)
}

// signalWatch follows a session's output across a signal.
type signalWatch struct {
	s     *Sessions
	owner *core.Owner
	id    core.SessionID
	tap   *core.Tap // nil: output is read once, without waiting
}

// watchOutput checks that the session's output can be read and opens a
// tap, so that what a signal makes the program print can be returned.
func (s *Sessions) watchOutput(owner *core.Owner, id core.SessionID) *signalWatch {
	w := &signalWatch{s: s, owner: owner, id: id}
	var probe core.Cursor
	if _, err := probe.Next(s.reader(owner, id), 1, 1); err != nil {
		return nil
	}
	if tp, ok := s.t.(tapper); ok {
		if tap, err := tp.Tap(owner, id); err == nil {
			w.tap = tap
		}
	}
	return w
}

// finish waits for the output to go quiet (bounded, see signalMaxWait)
// and returns the output owner has not been given yet, moving owner's
// tail position past it as a send's delta does (output is returned
// once): what the signal made the program print, and before it whatever
// owner had not tailed.
//
// After a signal to a job (a group other than the session's top-level
// one), it also waits, within signalMaxWait, until the session waits for
// input again, where the seam can tell: a job that prints as it ends and
// then takes longer than signalQuiet to exit left the caller's next line
// to be typed while the shell was taking the terminal back, and a shell
// can lose a line typed in that moment (it was echoed and never ran).
func (w *signalWatch) finish(ctx context.Context, job bool) (text string, truncated bool, skipped int64) {
	if w == nil {
		return "", false, 0
	}
	if w.tap != nil {
		start := time.Now()
		w.await(ctx)
		w.tap.Close()
		if job {
			w.awaitInput(ctx, signalMaxWait-time.Since(start))
		}
	}
	d, err := w.s.consume(w.owner, w.id, MaxLines)
	if err != nil {
		return "", false, 0
	}
	return d.Text, d.Truncated, d.Skipped
}

// await returns once the tap has been quiet for signalQuiet after some
// output, or nothing came for signalFirstOutput, or signalMaxWait passed.
func (w *signalWatch) await(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, signalMaxWait)
	defer cancel()
	wait := signalFirstOutput
	for {
		wctx, wcancel := context.WithTimeout(ctx, wait)
		_, err := w.tap.Next(wctx)
		wcancel()
		if err != nil { // quiet for wait, the deadline, or the output ended
			return
		}
		wait = signalQuiet
	}
}

// awaitInput returns once the session waits for input, the seam cannot
// tell, the session cannot be probed, or within passed.
func (w *signalWatch) awaitInput(ctx context.Context, within time.Duration) {
	p, ok := w.s.t.(inputProber)
	if !ok || within <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	tick := time.NewTicker(signalInputPoll)
	defer tick.Stop()
	for {
		waiting, ok, err := p.WaitingForInput(w.owner, w.id)
		if waiting || !ok || err != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
