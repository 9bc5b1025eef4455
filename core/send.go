package core

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// Send writes req.Data (and Enter unless req.NoSubmit) to the session and
// returns the live operation. Only one send may be live per session: a
// second fails with ErrSendActive until the first settles, or with
// req.Queue waits its turn (see [SendRequest.Queue]). ctx bounds the whole
// operation: when it ends before the send settles, the send is cancelled
// (SIGINT to the foreground group, wait reason cancelled); while it waits
// its turn, nothing is written and it fails with CANCELLED.
func (s *Service) Send(ctx context.Context, owner *Owner, id SessionID, req SendRequest) (SendOperation, error) {
	sess, err := s.lookup("send", owner, id)
	if err != nil {
		return nil, err
	}
	if err := CheckSend("send", id, req, s.opts.MaxSendBytes, len(sess.enter), 0); err != nil {
		return nil, err
	}
	if !req.NoSubmit {
		// A Windows line end is one Enter: the terminal reads "\r" and
		// "\n" each as one, which put an empty line after every line.
		req.Data = strings.ReplaceAll(req.Data, "\r\n", "\n")
	}
	data := []byte(req.Data)
	if !req.NoSubmit {
		data = append(data, sess.enter...)
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled("send", id, err)
	}
	timeout := req.Timeout
	if timeout == 0 {
		timeout = s.opts.SendTimeout
	}
	quiet, drawn := req.QuietWindow, time.Duration(0)
	if quiet == 0 {
		quiet, drawn = s.opts.QuietWindow, drawnQuiet
	}
	// The caller said how long the command may take: on a shell whose
	// prompt tells a finished command from silence, silence alone does
	// not settle the send.
	untilDone := req.Timeout > 0 && req.QuietWindow == 0 && !req.NoSubmit && !req.KeepQuietWindow

	editorPaste := !req.NoSubmit && sess.editorPastes(req.Data)
	turn := sess.queueFor(req.Queue)
	defer turn.leave()
	var base InputBaseline
	var idle idleMark
	var echo EchoMode
	for {
		if err := turn.wait(ctx, id); err != nil {
			return nil, err
		}
		// A person in control refuses the send, or holds it until the
		// hand-back (Options.HumanControl).
		for {
			sess.mu.Lock()
			c, err := sess.humanGateLocked("send", true)
			sess.mu.Unlock()
			if err != nil {
				return nil, err
			}
			if c == nil {
				break
			}
			if err := sess.waitForHuman(ctx, c, time.Now().Add(timeout)); err != nil {
				return nil, err
			}
		}
		base, idle = sess.baseline()
		echo = sess.inputEcho()
		sess.mu.Lock()
		if err := sess.usableLocked("send"); err != nil {
			sess.mu.Unlock()
			return nil, err
		}
		if _, err := sess.humanGateLocked("send", false); err != nil {
			sess.mu.Unlock() // a person took over while this send waited
			return nil, err
		}
		if sess.send == nil && turn.firstLocked() {
			break // sess.mu stays held
		}
		sess.mu.Unlock() // another send went first meanwhile: wait again
	}
	turn.leaveLocked()
	paced := false // quoted tabs in pieces (writePaced)
	if !req.NoSubmit {
		// What a paste's markers, the console's blank lines or the
		// shell's quoted tabs add counts against the send limit: a send
		// they would take past it is typed as it is.
		var typed string
		ok, tabs := false, false
		prompt, _ := sess.openLineLocked(64) // what the program waits at, if anything
		fresh := freshPrompts.MatchString(prompt)
		switch {
		case editorPaste && sess.editorModeLocked():
			typed, ok = pasteStart+req.Data+pasteEnd, true
		case sess.pastesLocked(base):
			typed, ok = asPaste(req.Data)
			if ok && fresh && endsInsideBlock(req.Data) {
				typed += string(sess.enter) // on the editor's indented next line: the block ends
			}
		case slices.Contains(replPrompts, prompt):
			// Python's console reads with GNU readline (up to 3.12),
			// which takes a tab after text for completion.
			typed, ok = forPythonConsole(req.Data, fresh)
			if quoted, q := quoteTabs(typed); q {
				typed, ok, tabs = quoted, true, true
			}
		case sess.shellReadsLocked(base) || sess.readlineReadsLocked():
			typed, ok = quoteTabs(req.Data)
			tabs = ok
		}
		if ok && len(typed)+len(sess.enter) <= s.opts.MaxSendBytes {
			data = append([]byte(typed), sess.enter...)
			paced = tabs && len(data) > tabPiece
		}
	}
	op := &operation{
		ctx:      ctx,
		sess:     sess,
		done:     make(chan struct{}),
		cancelCh: make(chan struct{}),
		kick:     make(chan struct{}, 1),
		result:   sess.buf.End(),
		reader:   sess.buf.End(),
		lineSent: bytes.ContainsAny(data, "\r\n"),
		tail:     req.Tail,
	}
	if req.NoSubmit {
		op.typed = typedText(data)
	}
	sess.send = op
	sess.resyncIdleLocked(idle)
	questionsOnly := false
	if untilDone && (sess.promptMarked || sess.buf.Marks().PromptEnds > 0) {
		if sess.watchesInput {
			// A read tells a question from silence too: silence settles
			// only at the deadline, or once a drawn screen pauses.
			quiet = neverQuiet
		} else {
			// No read is seen: silence settles a question (an open
			// line), not a command that printed whole lines.
			questionsOnly = true
		}
	}
	p := settleParams{
		start:         time.Now(),
		quiet:         quiet,
		drawnQuiet:    drawn,
		questionsOnly: questionsOnly,
		marks0:        sess.buf.Marks(),
		total0:        sess.buf.Total(),
		base:          base,
		deadline:      time.Now().Add(timeout),
		gate:          sess.gateLocked(),
	}
	p.promptShown = sess.buf.LineOpen()
	if m := p.marks0; p.promptShown && (m.PromptEnds == 0 || m.TextSincePromptEnd > 0) {
		// Off a marked shell's prompt (whose shell reads on its first
		// thread) the prompt's shape decides a reading thread's wait.
		line, _ := sess.openLineLocked(maxPromptLine + 64)
		p.replPrompt = looksLikeProgramPrompt(line)
	}
	sess.noteInputLocked(data, true, req.NoSubmit)
	sess.atPrompt = false
	op.handBack = sess.takeHandBackLocked()
	sess.emitLocked(sess.inputEvent(data, echo, ""))
	sess.mu.Unlock()
	rest := data
	if !paced {
		rest = sess.tryWrite(data)
	}
	if len(rest) == 0 {
		// Written whole: the read loop may settle it on the prompt
		// marker as the marker arrives (settleInlineLocked).
		sess.mu.Lock()
		if sess.send == op {
			pp := p
			op.inline = &pp
		}
		sess.mu.Unlock()
	}
	p.op = op
	go op.run(ctx, rest, paced, p)
	return op, nil
}

// tryWrite writes what the terminal takes at once (see [TryIO]) and
// returns the rest, which the send's writing goroutine writes. A send
// whose data all went in has nothing left to hand off: its settle counts
// the write as done from the send's start.
func (sess *session) tryWrite(data []byte) []byte {
	if sess.try == nil {
		return data
	}
	n, _ := sess.try.TryWrite(data) // an error: Write reports it for the rest
	return data[n:]
}

// operation is a live send.
type operation struct {
	ctx  context.Context // bounds the operation; its end cancels it
	sess *session
	// lineSent: the send's data ends a line, so its interrupt finds the
	// shell running that command rather than at its prompt (what a relay
	// cannot tell the service).
	lineSent bool
	// typed is the text keys (a NoSubmit send) typed, when it is plain
	// text only: what may be left on a program's input line.
	typed    string
	done     chan struct{}
	cancelCh chan struct{}
	// kick wakes the send's settling goroutine: every change of the
	// session but output, for a send the read loop settles (inline).
	kick chan struct{}
	once sync.Once
	// cancelling is set once the send was cancelled and is interrupting.
	cancelling atomic.Bool

	// Guarded by sess.mu.
	result   Cursor       // from the write; read once at settlement
	tail     *TailRequest // SendRequest.Tail
	reader   Cursor       // advanced by ReadOutput
	settled  bool
	res      SendResult
	handBack *HandBackNote // the note this send's result carries
	writeErr error
	// inline: the send's data went to the terminal whole, so the read
	// loop may settle it on the prompt tier (settleInlineLocked) with
	// these parameters; nil once the send is cancelled.
	inline *settleParams
}

// run writes data (what Send did not write at once: see tryWrite; in
// pieces when paced, see writePaced) on a goroutine of its own, waits for
// the send to settle and publishes the result.
func (op *operation) run(ctx context.Context, data []byte, paced bool, p settleParams) {
	sess := op.sess
	stopWrite := func() {}
	writeDone := closedChan
	if len(data) == 0 { // Send wrote it all (tryWrite)
		sess.wrote()
	} else {
		wctx, stop := context.WithCancel(ctx)
		defer stop()
		stopWrite = stop
		ch := make(chan struct{})
		writeDone = ch
		go func() {
			defer close(ch)
			defer sess.wrote()
			write := func() error { _, err := sess.be.Write(wctx, data); return err }
			if paced {
				write = func() error { return sess.writePaced(wctx, data) }
			}
			if err := write(); err != nil && wctx.Err() == nil {
				sess.mu.Lock()
				op.writeErr = err
				sess.mu.Unlock()
			}
		}()
		p.writeDone = writeDone
	}
	out := sess.settle(ctx, p, op.cancelCh)
	if out.preempted {
		return // the read loop settled the send
	}
	if out.reason == WaitCancelled {
		sess.mu.Lock()
		settled := op.settled
		op.inline = nil // the read loop no longer settles it
		sess.mu.Unlock()
		if settled {
			return
		}
		op.cancelling.Store(true)
		op.interrupt(p, writeDone, stopWrite)
	}
	stopWrite()
	if out.reason == WaitInferredIdle || out.reason == WaitTimeout || out.reason == WaitRemotePrompt {
		out.foreground = sess.describeForeground()
	}

	sess.mu.Lock()
	published := op.publishLocked(p, out)
	sess.mu.Unlock()
	if published {
		op.published()
	}
}

// commandLineLocked is the text keys left on the shell's command line,
// for a send that settled with the shell reading it at its prompt.
// sess.mu is held.
func (op *operation) commandLineLocked(out settleOutcome, m scrollback.Marks) string {
	switch {
	case out.reason != WaitStdinRead:
		return ""
	case out.shellReading:
		return op.sess.cmdLine.at(m)
	case op.typed != "" && !op.sess.buf.AltScreen():
		// Another program reading a line (a console, a question): the
		// keys' text is on it when the line it shows ends in it.
		if line, open := op.sess.openLineLocked(len(op.typed) + maxPromptLine); open && strings.HasSuffix(line, op.typed) {
			return op.typed
		}
	}
	return ""
}

// closedChan is a channel that is always closed.
var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// publishLocked records the send's result, unless it was already settled,
// and reports whether it did; the caller then calls published once it
// released sess.mu. sess.mu is held.
func (op *operation) publishLocked(p settleParams, out settleOutcome) bool {
	sess := op.sess
	if op.settled {
		return false
	}
	var d OutputDelta
	var cut []LineRange
	if op.tail != nil {
		tr := sess.tailLocked(*op.tail)
		d, cut = tr.OutputDelta, tr.Cut
	} else {
		d = sess.buf.Since(&op.result, MaxPageLinesLimit, sess.svc.opts.MaxResultBytes)
	}
	marks := sess.buf.Marks()
	op.res = SendResult{
		Delta:       d.Text,
		Truncated:   d.Truncated,
		Skipped:     d.Skipped,
		Cut:         cut,
		WaitReason:  out.reason,
		Status:      sess.status,
		ExitCode:    out.exitCode,
		Elapsed:     time.Since(p.start),
		HandBack:    op.handBack,
		Foreground:  out.foreground,
		InputHidden: out.hidden,
		AltScreen:   sess.buf.AltScreen(),
		CommandLine: op.commandLineLocked(out, marks),
		Continuation: !sess.status.Exited() && (out.reason != WaitPrompt &&
			marks.ContinuationPending && marks.Continuations > p.marks0.Continuations ||
			ContinuationPrompt(out.reason, d.Text) != ""),
	}
	op.settled = true
	op.inline = nil
	if sess.send == op {
		sess.send = nil
	}
	if out.reason == WaitPrompt {
		sess.atPrompt, sess.atPromptOutput = true, sess.lastOutput
	}
	sess.noteSettledLocked(out.reason, out.shellReading)
	sess.notifyLocked()
	op.kickNow()
	sess.emitLocked(Event{Kind: EventSettled, WaitReason: out.reason})
	return true
}

// kickNow wakes the send's settling goroutine if it waits.
func (op *operation) kickNow() {
	select {
	case op.kick <- struct{}{}:
	default:
	}
}

// published wakes the send's waiters once its result is recorded.
func (op *operation) published() {
	close(op.done)
	if log := op.sess.svc.log; log.Enabled(context.Background(), slog.LevelDebug) {
		log.Debug("ptyseam: send settled", "session", op.sess.id, "reason", op.res.WaitReason, "elapsed", op.res.Elapsed)
	}
}

// settleInlineLocked is the prompt tier run by the read loop as output
// arrives: a send written whole settles on the prompt marker here, without
// waking the send's goroutine first (which then finds it settled). It
// returns the send it settled, for published once sess.mu is released.
// sess.mu is held.
func (sess *session) settleInlineLocked() *operation {
	op := sess.send
	if op == nil || op.inline == nil || op.settled || sess.closing != nil || sess.closed || sess.status.Exited() {
		return nil
	}
	out, ok := sess.promptSettled(op.inline, sess.buf.Marks(), sess.buf.Total())
	if !ok || !op.publishLocked(*op.inline, out) {
		return nil
	}
	return op
}

// Done is closed when the send has settled.
func (op *operation) Done() <-chan struct{} { return op.done }

// Wait blocks until the send settles or ctx ends (which only stops the
// waiting).
func (op *operation) Wait(ctx context.Context) (SendResult, error) {
	select {
	case <-op.done:
	case <-ctx.Done():
		return SendResult{}, cancelled("send", op.sess.id, ctx.Err())
	}
	op.sess.mu.Lock()
	defer op.sess.mu.Unlock()
	res := op.res
	if op.writeErr != nil && res.WaitReason != WaitSessionExit {
		return res, &Error{Code: CodeSessionExited, Op: "send", Session: op.sess.id, Msg: "writing to the terminal failed", Err: op.writeErr}
	}
	return res, nil
}

// ReadOutput returns the output since the previous call and advances.
func (op *operation) ReadOutput() OutputDelta {
	sess := op.sess
	sess.mu.Lock()
	defer sess.mu.Unlock()
	d := sess.buf.Since(&op.reader, MaxPageLinesLimit, sess.svc.opts.MaxResultBytes)
	return d
}

// Cancel interrupts the send: SIGINT to the foreground group, and the
// send settles as cancelled. It returns false once the send has settled.
func (op *operation) Cancel() bool {
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
	op.sess.mu.Lock()
	defer op.sess.mu.Unlock()
	return op.res.WaitReason == WaitCancelled
}

// cancelWriteGrace is how long a cancel lets a write in progress finish
// before aborting it, so that a command is either typed whole or not at all.
const cancelWriteGrace = 100 * time.Millisecond

// cancelSettle bounds the wait, after SIGINT, for the program to react (a
// new prompt, a foreground read, or quiet), so the next send does not race
// the interrupt.
const (
	cancelSettle = 2 * time.Second
	cancelQuiet  = 250 * time.Millisecond
)

// interrupt sends SIGINT to the foreground group once the write finished
// (or was aborted), then waits briefly for the program to react.
func (op *operation) interrupt(p settleParams, writeDone <-chan struct{}, stopWrite context.CancelFunc) {
	sess := op.sess
	select {
	case <-writeDone:
	case <-time.After(cancelWriteGrace):
		stopWrite()
		<-writeDone
	}
	sess.awaitCommandStart(p)
	// A SIGINT that lands between a shell's fork and the command's exec
	// can be lost: if the same group still runs, quiet and not reading,
	// after the reaction window, interrupt it again (three times at most).
	for attempt := 0; attempt < cancelAttempts; attempt++ {
		fg0, _ := sess.inputWait(InputBaseline{})
		sess.mu.Lock()
		marks0, total0 := sess.buf.Marks(), sess.buf.Total()
		mark := sess.interruptMarkLocked() // before the shell can react
		sess.mu.Unlock()
		start := time.Now()
		sigCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		// A relay's SIGINT is its interrupt character (deliverSignal).
		sent, err := sess.deliverSignal(sigCtx, SignalRequest{Signal: SIGINT, AllowLeader: true})
		cancel()
		if err != nil {
			return
		}
		atPrompt, known := sent.Leader && !sess.relay, sent.TargetPGID != 0 && !sess.relay
		if sess.relay {
			// The far end's shell read the send's line and runs it, or
			// still holds a line without its end, which the ^C abandons.
			atPrompt, known = !op.lineSent, true
		}
		sess.mu.Lock()
		sess.noteInterruptLocked(mark, atPrompt, known)
		sess.mu.Unlock()
		out := sess.settle(context.Background(), settleParams{
			start:    start,
			quiet:    cancelQuiet,
			deadline: start.Add(cancelSettle),
			marks0:   marks0,
			total0:   total0,
			base:     fg0.Now,
			gate:     promptGate{any: true},
		}, nil)
		if out.reason != WaitInferredIdle && out.reason != WaitTimeout {
			return
		}
		fg, ok := sess.inputWait(InputBaseline{})
		if !ok || fg.Now.Leader || fg.Reading || fg.Now.Group != sent.TargetPGID {
			return
		}
	}
}

// cancelAttempts bounds the SIGINTs one cancel sends.
const cancelAttempts = 3

// cancelStartWait bounds how long a cancel waits for a shell to start the
// command it was just given before it signals.
const cancelStartWait = 500 * time.Millisecond

// awaitCommandStart waits, when the shell itself is still the foreground
// group right after a write, until it has started the command (another
// group is in the foreground), is back at its prompt, or waits for input.
// SIGINT to a shell that is still reading the line it was given would
// garble the line rather than interrupt the command.
func (sess *session) awaitCommandStart(p settleParams) {
	deadline := time.Now().Add(cancelStartWait)
	for time.Now().Before(deadline) {
		fg, ok := sess.inputWait(p.base)
		if !ok || !fg.Now.Leader {
			return
		}
		sess.mu.Lock()
		marks := sess.buf.Marks()
		changed := sess.changedLocked()
		sess.mu.Unlock()
		if marks.PromptEnds > p.marks0.PromptEnds || (fg.Waiting && fg.New) {
			return
		}
		select {
		case <-changed:
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// baseline returns the foreground before a write, against which a wait
// seen later counts as new. A marked shell that settled at its prompt with
// nothing printed since is its own foreground reader: the backend's cheap
// look stands for the full question. Otherwise the full question also
// says whether the shell waits at its prompt (idleMark).
func (sess *session) baseline() (InputBaseline, idleMark) {
	sess.mu.Lock()
	atPrompt := sess.promptMarked && sess.atPrompt && sess.lastOutput.Equal(sess.atPromptOutput)
	k := sess.idleMarkLocked()
	sess.mu.Unlock()
	if sess.watchesInput && atPrompt {
		if b, err := sess.probe.Foreground(); err == nil && b.Leader {
			return b, idleMark{}
		}
	}
	w, ok := sess.inputWait(InputBaseline{})
	k.waiting = ok && w.Waiting && w.Now.Leader && !w.Relay
	return w.Now, k
}
