package ptysession

import (
	"context"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// SendRequest is one write to a session.
type SendRequest struct {
	// Data is written byte-exact (control characters included: "\x03" is
	// Ctrl-C).
	Data string
	// Submit appends the backend's Enter key after Data. nil means true,
	// so that interactive programs receive a line; pass false for
	// byte-exact writes.
	Submit *bool
	// Timeout overrides the seam's absolute send deadline (0: its
	// default). It must not exceed Options.MaxTimeout.
	Timeout time.Duration
	// QuietWindow overrides the seam's silence window (0: its default).
	// It must not exceed Options.MaxTimeout; one as long as Timeout means
	// silence never settles the send.
	QuietWindow time.Duration
	// Progress, if set, receives the output produced so far every
	// Options.ProgressInterval while the send runs (only when there is new
	// output). It is called from Send's goroutine.
	Progress func(core.OutputDelta)
	// OmitEcho leaves the terminal's echo of Data (the typed command line,
	// and each further line of a multi-line send) out of Delta: the caller
	// knows what it typed.
	OmitEcho bool
	// OmitPrompt leaves the shell's prompt that ended the send out of
	// Delta, when the send settled on it (WaitReason prompt).
	OmitPrompt bool
	// Queue waits for a send still running on the session (in first come,
	// first served order) instead of failing with SEND_ACTIVE. At most
	// Options.MaxQueuedSends sends wait per session (SEND_ACTIVE beyond);
	// a ctx that ends while waiting is CANCELLED and nothing is written.
	Queue bool
}

// SendResult is how a send settled.
type SendResult struct {
	// Delta is the cleaned output the owner had not been given yet: what
	// the write produced, after any output printed since the owner's last
	// open, send or tail (the newest part, at most Options.MaxResultBytes).
	// Output is returned once: the owner's tail position moves past Delta.
	Delta string `json:"delta"`
	// Status is the session's status when the send settled. A settled
	// send does not mean the program exited.
	Status core.Status `json:"status"`
	// WaitReason says why control came back.
	WaitReason core.WaitReason `json:"waitReason"`
	// Truncated reports that older parts of Delta were dropped.
	Truncated bool `json:"truncated"`
	// Skipped counts whole lines dropped from Delta.
	Skipped int64 `json:"skipped,omitempty"`
	// ExitCode is the exit code the shell reported for the command when
	// the send settled on a prompt, else nil.
	ExitCode *int `json:"exitCode,omitempty"`
}

// Bool returns a pointer to b, for SendRequest.Submit.
func Bool(b bool) *bool { return &b }

// Send writes to a session and waits until the write settled. Only one
// send runs per session: another fails with SEND_ACTIVE, or waits its turn
// with req.Queue. Output is returned once: open, send and tail each move
// your tail position past the output they return, so a later tail starts
// after it; to read output again, page it by line number with
// [Sessions.Read]. When ctx ends first,
// the send is cancelled (SIGINT to the foreground process group) and Send
// returns what was printed until then together with a CANCELLED error that
// also matches ctx's error. Bad input is INVALID_ARGUMENT naming the field.
func (s *Sessions) Send(ctx context.Context, owner *core.Owner, id core.SessionID, req SendRequest) (SendResult, error) {
	const op = "send"
	if err := checkCall(ctx, op, owner, id); err != nil {
		return SendResult{}, err
	}
	submit := req.Submit == nil || *req.Submit
	n := len(req.Data)
	if submit {
		n++
	}
	switch {
	case req.Data == "" && !submit:
		return SendResult{}, invalid(op, id, "data", "is empty and submit is false: nothing to send")
	case n > s.opts.MaxSendBytes:
		return SendResult{}, invalid(op, id, "data", "%d bytes exceeds the limit of %d", len(req.Data), s.opts.MaxSendBytes)
	}
	if err := s.checkDeadlines(op, id, req.Timeout, req.QuietWindow); err != nil {
		return SendResult{}, err
	}
	release, err := s.acquireSend(ctx, owner, id, req.Queue)
	if err != nil {
		return SendResult{}, err
	}
	defer release()
	cs := s.cursor(owner, id)
	res, err := s.run(ctx, owner, id, core.SendRequest{
		Data:        []byte(req.Data),
		Submit:      submit,
		Timeout:     req.Timeout,
		QuietWindow: req.QuietWindow,
	}, req.Progress, func() { cs.finishing.Store(true) })
	if err != nil && res.WaitReason == "" {
		switch core.CodeOf(err) {
		case core.CodeNoSession, core.CodeForeignSession, core.CodeOwnerDisposed:
			s.forget(owner, id) // no state kept for ids that are not the owner's
		}
		return SendResult{}, err
	}
	out := SendResult{Status: res.Status, WaitReason: res.WaitReason, ExitCode: res.CommandExitCode}
	if d, derr := s.consume(owner, id, MaxLines); derr == nil {
		out.Delta, out.Truncated, out.Skipped = d.Text, d.Truncated, d.SkippedLines
	} else { // closed meanwhile: the seam's own delta is all there is
		text, truncated, skipped := boundNewest(res.Output, s.opts.MaxResultBytes)
		out.Delta, out.Truncated, out.Skipped = text, res.Truncated || truncated, res.SkippedLines+skipped
	}
	if req.OmitEcho {
		out.Delta = omitEcho(out.Delta, req.Data)
	}
	if req.OmitPrompt && res.WaitReason == core.WaitPrompt {
		out.Delta = omitPrompt(out.Delta)
	}
	return out, err
}

// run starts a send and waits for it, reporting progress and cancelling
// it when ctx ends. settled, if set, is called as soon as the send is
// settled or being cancelled: from then on the seam takes another send.
func (s *Sessions) run(ctx context.Context, owner *core.Owner, id core.SessionID, req core.SendRequest, progress func(core.OutputDelta), settled func()) (core.SendResult, error) {
	op, err := s.t.Send(ctx, owner, id, req)
	if err != nil {
		return core.SendResult{}, err
	}
	if settled == nil {
		settled = func() {}
	}
	var tick <-chan time.Time
	if progress != nil {
		t := time.NewTicker(s.opts.ProgressInterval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-op.Done():
			settled()
			res, err := op.Wait(context.Background())
			if err == nil && res.WaitReason == core.WaitCancelled && ctx.Err() != nil {
				err = cancelled("send", id, ctx.Err())
			}
			return res, err
		case <-tick:
			if d := op.ReadOutput(); d.Text != "" || d.Truncated {
				progress(d)
			}
		case <-ctx.Done():
			settled()
			op.Cancel()
			res, _ := op.Wait(context.Background())
			return res, cancelled("send", id, ctx.Err())
		}
	}
}

// boundNewest keeps the newest max bytes of text, starting at a line
// start where one is in reach, and counts the whole lines dropped.
func boundNewest(text string, max int) (string, bool, int64) {
	if len(text) <= max {
		return text, false, 0
	}
	cut := len(text) - max
	if i := strings.IndexByte(text[cut:], '\n'); i >= 0 && cut+i+1 < len(text) {
		cut += i + 1
	} else {
		for cut < len(text) && !isRuneStart(text[cut]) {
			cut++
		}
	}
	skipped := int64(strings.Count(text[:cut], "\n"))
	return text[cut:], true, skipped
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
