package ptysession

import (
	"context"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/runecut"
)

// SendRequest is one write to a session through the facade: what to type
// and the deadlines (as in [core.SendRequest]; Timeout and QuietWindow at
// most Options.MaxTimeout), and how the facade runs it.
type SendRequest struct {
	// Data is written to the terminal as is; Enter follows unless
	// NoSubmit.
	Data string
	// NoSubmit sends Data byte-exact, without Enter (for a control key
	// such as "\x03", or a partial line).
	NoSubmit bool
	// Timeout bounds the wait for the send to settle (0: the service's
	// default).
	Timeout time.Duration
	// QuietWindow is how long output must pause before silence settles
	// the send (0: the service's default; with Timeout set on a shell
	// that marks its prompts, silence settles only a question or a drawn
	// screen: see [core.SendRequest].QuietWindow).
	QuietWindow time.Duration
	// Progress, if set, receives the output produced so far every
	// Options.ProgressInterval while the send runs when there is new
	// output, and an empty delta after a second without any, so that a
	// caller (an MCP client that waits while a call reports progress) can
	// tell a silent command still runs. It is called from Send's
	// goroutine.
	Progress func(core.OutputDelta)
	// OmitEcho leaves the terminal's echo of Data (the typed command line,
	// and each further line of a multi-line send) out of Delta: the caller
	// knows what it typed.
	OmitEcho bool
	// OmitPrompt leaves the shell's prompt that ended the send out of
	// Delta, when the send settled on it (WaitReason prompt).
	OmitPrompt bool
	// Queue waits for a send still running on the session (in first come,
	// first served order) instead of failing with SEND_ACTIVE, as
	// [core.SendRequest.Queue]: the service bounds the sends that wait
	// (core.Options.MaxQueuedSends, default 4); a ctx that ends while
	// waiting is CANCELLED and nothing is written.
	Queue bool
}

// SendResult is how a send settled (see [core.SendResult]); through the
// facade, Delta is the output the owner had not been given yet: what the
// write produced, after any output printed since the owner's last open,
// send or tail (the newest part, at most Options.MaxResultBytes). Output
// is returned once: the owner's tail position moves past Delta.
type SendResult struct {
	core.SendResult
	// SilenceNote, on a send that settled on silence (inferred_idle) in a
	// session whose backend cannot see the far side read the terminal
	// (plain ssh) with its output ending in an unfinished line (a question
	// such as a hidden "Password: " prompt, or a prompt the shell printed
	// without the marker), says in one line that it was silence and how to
	// have such sends settle on the read (the ptyseam agent); empty
	// otherwise.
	SilenceNote string `json:"silenceNote,omitempty"`
	// InputNote, on a send that settled on a program's read of the
	// terminal when the program printed nothing after the send's echo
	// (grep with no file, cat, read), says that what is sent next is its
	// input and how to end it; empty otherwise.
	InputNote string `json:"inputNote,omitempty"`
}

// programInputNote is [SendResult].InputNote: a model that ran grep
// without a file sent its next command into grep.
const programInputNote = `a program reads the terminal and shows no prompt: what you send next is its input; pty_keys ["C-d"] ends the input, ["C-c"] interrupts it`

// inputNote is the InputNote of a send of data that ended in r: a read
// of the terminal by a program that printed nothing after the echo, not
// a hidden read, an incomplete command, keys left on a line or a
// full-screen program (whose screen is no text of the delta).
func inputNote(r core.SendResult, req SendRequest) string {
	if r.WaitReason != core.WaitStdinRead || req.NoSubmit || r.Continuation || r.InputHidden || r.CommandLine != "" || r.AltScreen ||
		r.Status.Kind != core.StatusRunning || strings.TrimSpace(omitEcho(r.Delta, req.Data)) != "" {
		return ""
	}
	return programInputNote
}

// seam is the request the service runs.
func (r SendRequest) seam() core.SendRequest {
	return core.SendRequest{Data: r.Data, NoSubmit: r.NoSubmit, Timeout: r.Timeout, QuietWindow: r.QuietWindow, Queue: r.Queue}
}

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
	// The service validates the request and holds the one send per
	// session (queueing it with Queue); the facade bounds only how long
	// a caller may ask it to wait.
	if err := core.CheckDeadlines(op, id, req.Timeout, req.QuietWindow, s.opts.MaxTimeout); err != nil {
		return SendResult{}, err
	}
	// The seam cuts the result's output from the owner's tail position as
	// the send settles: what was printed since the owner's last call, then
	// the send's own output, within the facade's bound.
	seam := req.seam()
	tail := s.tailRequest(MaxLines)
	seam.Tail = &tail
	res, err := s.run(ctx, owner, id, seam, req.Progress)
	if err != nil && res.WaitReason == "" {
		return SendResult{}, err
	}
	out := SendResult{SendResult: res, InputNote: inputNote(res, req)}
	out.HandBack = s.boundHandBack(res.HandBack)
	if req.OmitEcho {
		out.Delta = omitEcho(out.Delta, req.Data)
	}
	if req.OmitPrompt && res.WaitReason == core.WaitPrompt {
		out.Delta = omitPrompt(out.Delta)
	}
	out.SilenceNote = s.silenceNote(owner, id, out.SendResult)
	return out, err
}

// progressHeartbeat is how long a send with a Progress callback goes
// without a report: a silent command gets an empty one.
const progressHeartbeat = time.Second

// run starts a send and waits for it, reporting progress. When ctx ends,
// the seam cancels the send (SIGINT, wait reason cancelled) and run
// returns a CANCELLED error with what was printed.
func (s *Sessions) run(ctx context.Context, owner *core.Owner, id core.SessionID, req core.SendRequest, progress func(core.OutputDelta)) (core.SendResult, error) {
	op, err := s.t.Send(ctx, owner, id, req)
	if err != nil {
		return core.SendResult{}, err
	}
	var tick <-chan time.Time
	if progress != nil {
		t := time.NewTicker(s.opts.ProgressInterval)
		defer t.Stop()
		tick = t.C
	}
	lastReport := time.Now()
	ended, stopped := ctx.Done(), false
	for {
		select {
		case <-op.Done():
			res, err := op.Wait(context.Background())
			if stopped || (err == nil && res.WaitReason == core.WaitCancelled && ctx.Err() != nil) {
				err = cancelled("send", id, ctx.Err())
			}
			return res, err
		case <-tick:
			d := op.ReadOutput()
			if d.Text != "" || d.Truncated || time.Since(lastReport) >= progressHeartbeat {
				progress(d) // an empty one says the send still runs
				lastReport = time.Now()
			}
		case <-ended: // the seam is cancelling the send
			ended, stopped = nil, true
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
		cut = len(text) - len(runecut.Tail(text, max))
	}
	skipped := int64(strings.Count(text[:cut], "\n"))
	return text[cut:], true, skipped
}
