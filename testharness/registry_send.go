package testharness

import (
	"context"
	"sync"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Send writes req.Data (and the backend's Enter key when req.Submit) and
// returns the live operation. Validation, error codes and the one-live-send
// rule are those of [core.Service.Send]; ctx ending before the send
// settles cancels it.
func (r *Registry) Send(ctx context.Context, owner *core.Owner, id core.SessionID, req core.SendRequest) (core.SendOperation, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.lookupLocked("send", owner, id)
	if err != nil {
		return nil, err
	}
	data := append([]byte(nil), req.Data...)
	if req.Submit {
		data = append(data, s.enter...)
	}
	switch {
	case len(data) == 0:
		return nil, seamError(core.CodeInvalidArgument, "send", id, "nothing to send: data is empty and submit is false")
	case len(data) > r.opts.MaxSendBytes:
		return nil, seamError(core.CodeInvalidArgument, "send", id, "data exceeds the send limit")
	case req.Timeout < 0 || req.QuietWindow < 0:
		return nil, seamError(core.CodeInvalidArgument, "send", id, "timeout and quiet window must not be negative")
	case ctx.Err() != nil:
		return nil, &core.Error{Code: core.CodeCancelled, Op: "send", Session: id, Err: ctx.Err()}
	}
	if err := s.usableLocked("send"); err != nil {
		return nil, err
	}
	if s.send != nil {
		return nil, seamError(core.CodeSendActive, "send", id, "a send is still live on this session")
	}
	timeout, quiet := req.Timeout, req.QuietWindow
	if timeout == 0 {
		timeout = r.opts.SendTimeout
	}
	if quiet == 0 {
		quiet = r.opts.QuietWindow
	}
	op := &fakeSend{
		s:        s,
		done:     make(chan struct{}),
		cancelCh: make(chan struct{}),
		result:   s.buf.End(),
		reader:   s.buf.End(),
	}
	s.send = op
	now := time.Now()
	p := settleParams{start: now, quiet: quiet, deadline: now.Add(timeout), marks0: s.buf.Marks(), total0: s.buf.Total()}
	go op.run(ctx, data, p)
	return op, nil
}

// fakeSend is a live send. Fields after once are guarded by the registry's
// mutex.
type fakeSend struct {
	s        *fakeSession
	done     chan struct{}
	cancelCh chan struct{}
	once     sync.Once

	result   core.Cursor // from the write to settlement
	reader   core.Cursor // advanced by ReadOutput
	res      core.SendResult
	writeErr error
}

func (op *fakeSend) run(ctx context.Context, data []byte, p settleParams) {
	s, r := op.s, op.s.r
	wctx, stopWrite := context.WithCancel(ctx)
	defer stopWrite()
	writeDone := make(chan struct{})
	go func() {
		defer close(writeDone)
		if _, err := s.be.Write(wctx, data); err != nil && wctx.Err() == nil {
			r.mu.Lock()
			op.writeErr = err
			r.mu.Unlock()
		}
	}()
	p.writeDone = writeDone
	reason, code := s.settle(ctx, p, op.cancelCh)
	if reason == core.WaitCancelled {
		op.interrupt()
	}
	stopWrite()
	<-writeDone

	r.mu.Lock()
	d, _ := op.result.Next(s.pageLocked, core.MaxPageLinesLimit, r.opts.MaxResultBytes)
	op.res = core.SendResult{
		Output: d.Text, Truncated: d.Truncated, SkippedLines: d.SkippedLines,
		WaitReason: reason, Status: s.status, CommandExitCode: code,
		Elapsed: time.Since(p.start),
	}
	if s.send == op {
		s.send = nil
	}
	s.notifyLocked()
	r.mu.Unlock()
	close(op.done)
}

// Done is closed when the send has settled.
func (op *fakeSend) Done() <-chan struct{} { return op.done }

// Wait blocks until the send settles or ctx ends (which only stops the
// waiting). A failed write is reported as SESSION_EXITED unless the send
// settled on the session's exit.
func (op *fakeSend) Wait(ctx context.Context) (core.SendResult, error) {
	select {
	case <-op.done:
	case <-ctx.Done():
		return core.SendResult{}, &core.Error{Code: core.CodeCancelled, Op: "send", Session: op.s.id, Err: ctx.Err()}
	}
	op.s.r.mu.Lock()
	defer op.s.r.mu.Unlock()
	if op.writeErr != nil && op.res.WaitReason != core.WaitSessionExit {
		return op.res, &core.Error{Code: core.CodeSessionExited, Op: "send", Session: op.s.id, Msg: "writing to the terminal failed", Err: op.writeErr}
	}
	return op.res, nil
}

// ReadOutput returns the output since the previous call (or the write) and
// advances.
func (op *fakeSend) ReadOutput() core.OutputDelta {
	r := op.s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	d, _ := op.reader.Next(op.s.pageLocked, core.MaxPageLinesLimit, r.opts.MaxResultBytes)
	return d
}

// Cancel settles the send as cancelled and sends SIGINT to the foreground
// process group. It returns false if the send had already settled.
func (op *fakeSend) Cancel() bool {
	select {
	case <-op.done:
		return false
	default:
	}
	fired := false
	op.once.Do(func() { close(op.cancelCh); fired = true })
	if !fired {
		return false
	}
	<-op.done
	op.s.r.mu.Lock()
	defer op.s.r.mu.Unlock()
	return op.res.WaitReason == core.WaitCancelled
}

// interrupt sends SIGINT to the foreground group and keeps the send's slot
// until the program reacted (a prompt, or a short silence; 2 s a try), as
// core does: a send arriving meanwhile would otherwise be typed into the
// command being interrupted. A SIGINT that lands between a shell's fork and
// its command's exec can be lost: it tries three times at most.
func (op *fakeSend) interrupt() {
	s, r := op.s, op.s.r
	for attempt := 0; attempt < 3; attempt++ {
		r.mu.Lock()
		marks0, total0 := s.buf.Marks(), s.buf.Total()
		r.mu.Unlock()
		start := time.Now()
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := s.be.Signal(sctx, core.SignalRequest{Signal: core.SIGINT, AllowLeader: true})
		cancel()
		if err != nil {
			return
		}
		reason, _ := s.settle(context.Background(), settleParams{start: start, quiet: 250 * time.Millisecond,
			deadline: start.Add(2 * time.Second), marks0: marks0, total0: total0}, nil)
		if reason != core.WaitInferredIdle && reason != core.WaitTimeout {
			return
		}
	}
}
