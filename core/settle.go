package core

import (
	"context"
	"errors"
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// settleParams describe one wait for a session to settle.
type settleParams struct {
	start time.Time     // when the write was issued
	quiet time.Duration // silence window for inferred_idle
	// drawnQuiet is the silence window once the output since the write
	// drew a screen (Marks.Draws) or cleared it twice (Marks.Clears: a
	// program that refreshes, where one clear is clear's): a program that
	// redraws and never reads (watch, docker stats) shows its screen when
	// a redraw went quiet. Zero keeps quiet.
	drawnQuiet time.Duration
	// questionsOnly: silence settles the wait only while the output ends
	// in an open line (a question: "Password: "), or drew a screen; a
	// command that printed whole lines and went quiet is still busy. Set
	// for a caller's deadline on a marked shell whose reads are not seen.
	questionsOnly bool
	deadline      time.Time // absolute deadline for timeout
	marks0        scrollback.Marks
	total0        int64           // scrollback lines at the write
	base          InputBaseline   // the foreground before the write
	writeDone     <-chan struct{} // nil: nothing being written
	initial       bool            // the initial-output wait of a spawn
	// promptOnly settles only on the prompt marker, exit or the deadline:
	// the initial wait of a shell known to print the marker.
	promptOnly bool
	// gate says which prompt may settle the wait (promptgate.go).
	gate promptGate
	// promptShown: the output ended in an open line when the send wrote
	// (a program's prompt), so a program on an event loop that ends on a
	// complete line since has not answered yet (eventLoopBusy).
	promptShown bool
	// replPrompt: that open line had a console's prompt shape
	// (looksLikeProgramPrompt: "jshell> ", ">>> "), not a question's
	// ("Name: "); a reading thread is held back only after such a prompt.
	replPrompt bool
	// op is the send this wait is for, if any: the read loop may settle it
	// first (settleInlineLocked), which ends the wait as preempted.
	op *operation
}

// settleOutcome is why a wait ended.
type settleOutcome struct {
	reason   WaitReason
	exitCode *int
	// shellReading: a stdin_read whose reader was the session's own
	// top-level process (a shell at its prompt).
	shellReading bool
	// preempted: the read loop settled the send (p.op) first.
	preempted bool
	// foreground: the program other than the top-level process that
	// holds the terminal, for inferred_idle and timeout.
	foreground *ForegroundProgram
	// hidden: a stdin_read whose reader reads a hidden line.
	hidden bool
}

// probeSchedule is how long output must have been quiet before each
// successive foreground probe; after the last entry, probes repeat at its
// interval. Probes run only while someone waits, so an idle session costs
// nothing.
var probeSchedule = []time.Duration{
	500 * time.Microsecond, 2 * time.Millisecond, 5 * time.Millisecond,
	12 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond,
}

const probeRepeat = 100 * time.Millisecond

// neverQuiet is a quiet window no silence reaches: the wait ends on the
// prompt, a read, a drawn screen's pause, the exit or the deadline.
const neverQuiet = time.Duration(1 << 62)

// drawnQuiet is the default quiet window of a send whose output drew a
// screen (settleParams.drawnQuiet): shorter than the default redraw
// interval of watch (2 s) and top (3 s), longer than the gaps inside
// one redraw.
const drawnQuiet = 500 * time.Millisecond

// confirmDelay separates the two probes that confirm a foreground read.
// When nothing at all was printed since the write (not even the echo of the
// input), the program may not have seen the input yet: the kernel hands
// bytes written to the terminal over to its reader asynchronously, and on a
// loaded machine that can take longer than a millisecond. Such a wait is
// confirmed only after silentConfirmDelay.
const (
	confirmDelay       = time.Millisecond
	silentConfirmDelay = 50 * time.Millisecond
)

// settle waits until the session settles and says why. It never busy-polls:
// it sleeps on output changes, exit, cancellation and the next due check.
// ctx ending or cancel closing returns WaitCancelled. The tiers, strongest
// first: exit or close; the prompt marker; a foreground read (probed);
// silence; the deadline.
func (sess *session) settle(ctx context.Context, p settleParams, cancel <-chan struct{}) settleOutcome {
	writeDone := p.writeDone
	var writeDoneAt time.Time
	if writeDone == nil {
		writeDoneAt = p.start
	}
	var reads readWatch
	var remoteAsked time.Time // the lastOutput remotePromptShown was asked at
	var timer *time.Timer     // made at the first wait: a prompt that is already there needs none
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()

	for {
		sess.mu.Lock()
		ended := sess.status.Exited() || sess.closing != nil || sess.closed
		marks := sess.buf.Marks()
		total := sess.buf.Total()
		lastOutput := sess.lastOutput
		preempted := p.op != nil && p.op.settled
		var changed <-chan struct{}
		var kick chan struct{}
		if p.op != nil && p.op.inline != nil && sess.watchesInput {
			// The read loop settles this send on its prompt: output
			// alone needs no wake-up here (the probes and the quiet
			// window run from lastOutput on the timer); every other
			// change kicks.
			kick = p.op.kick
		} else {
			changed = sess.changedLocked()
		}
		sess.mu.Unlock()

		if preempted {
			return settleOutcome{preempted: true}
		}
		if ended {
			return settleOutcome{reason: WaitSessionExit}
		}
		written := !writeDoneAt.IsZero()
		if written {
			if out, ok := sess.promptSettled(&p, marks, total); ok {
				return out
			}
		}
		now := time.Now()
		quietFor := now.Sub(latest(lastOutput, writeDoneAt, p.start))

		nextProbe := time.Duration(-1)
		if sess.watchesInput && written && !p.promptOnly {
			var settled bool
			if settled, nextProbe = reads.step(sess, &p, lastOutput, quietFor); settled {
				if !reads.leader {
					if out, ok := sess.shellReadsAtPrompt(&p); ok {
						return out
					}
				}
				return settleOutcome{reason: WaitStdinRead, shellReading: reads.leader, hidden: reads.hidden}
			}
		}

		// Before a program's first output, the initial wait allows it a
		// longer start.
		quiet := p.quiet
		if p.initial && lastOutput.Equal(sess.created) {
			quiet = 3 * p.quiet
		}
		drew := p.drawnQuiet > 0 && (marks.Draws > p.marks0.Draws || marks.Clears >= p.marks0.Clears+2)
		if drew {
			quiet = min(quiet, p.drawnQuiet)
		}
		silenceSettles := written && !p.promptOnly
		if silenceSettles && p.questionsOnly && !drew {
			sess.mu.Lock()
			silenceSettles = sess.buf.LineOpen()
			sess.mu.Unlock()
		}

		// A shell on another machine (an ssh typed into this terminal)
		// prints no marker: its prompt's shape, quiet for
		// remotePromptQuiet, settles, asked once per quiet spell.
		remoteDue := written && !p.promptOnly && !p.initial && quiet > remotePromptQuiet && !remoteAsked.Equal(lastOutput)
		if remoteDue && quietFor >= remotePromptQuiet {
			remoteAsked, remoteDue = lastOutput, false
			if sess.remotePromptShown() {
				return settleOutcome{reason: WaitRemotePrompt}
			}
		}
		if silenceSettles && quietFor >= quiet {
			return settleOutcome{reason: WaitInferredIdle}
		}
		if !now.Before(p.deadline) {
			return settleOutcome{reason: WaitTimeout}
		}
		wait := p.deadline.Sub(now)
		if silenceSettles || (!p.promptOnly && !p.questionsOnly) {
			wait = min(wait, quiet-quietFor)
		}
		if nextProbe >= 0 {
			wait = min(wait, nextProbe)
		}
		if remoteDue {
			wait = min(wait, remotePromptQuiet-quietFor)
		}
		wait = max(wait, 100*time.Microsecond)
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		select {
		case <-changed:
		case <-kick:
		case <-timer.C:
		case <-writeDone:
			writeDone = nil
			writeDoneAt = time.Now()
		case <-cancel:
			return settleOutcome{reason: WaitCancelled}
		case <-ctx.Done():
			return settleOutcome{reason: WaitCancelled}
		}
	}
}

// promptSettled is the prompt tier: a prompt marker after the write
// (promptAnswers) with the shell in the foreground.
func (sess *session) promptSettled(p *settleParams, marks scrollback.Marks, total int64) (settleOutcome, bool) {
	if !promptAnswers(p, marks, total) {
		return settleOutcome{}, false
	}
	if leader, ok := sess.leaderInForeground(); ok && !leader {
		return settleOutcome{}, false
	}
	return promptOutcome(p, marks), true
}

// promptAnswers reports whether the newest output is a prompt that
// answers the send: a prompt marker after the write, on a new line (a
// prompt redrawn in place, as readline does on SIGWINCH, is not a command
// finishing), with nothing after it, admitted by the send's gate (printed
// after the shell read the send's last line). A shell whose command-end
// markers count its input lines tells a redraw apart by itself (a redraw
// prints no new command-end marker): its prompt after a new command-end
// marker settles on the line it was on, after output without a newline or
// an answer typed with echo off (read -s -p).
func promptAnswers(p *settleParams, marks scrollback.Marks, total int64) bool {
	if marks.PromptEnds <= p.marks0.PromptEnds || !marks.AtPrompt() {
		return false
	}
	if total <= p.total0 && !(marks.InputLineValid && marks.CommandEnds > p.marks0.CommandEnds) {
		return false
	}
	return p.gate.admits(marks, p.marks0)
}

// promptOutcome is a send settled on the newest prompt, with the exit
// code its command-end marker carries.
func promptOutcome(p *settleParams, marks scrollback.Marks) settleOutcome {
	out := settleOutcome{reason: WaitPrompt}
	if marks.CommandEnds > p.marks0.CommandEnds && marks.LastExitValid && !p.initial {
		code := marks.LastExitCode
		out.exitCode = &code
	}
	return out
}

// shellReadsAtPrompt is the prompt tier for a shell the session's shell
// started (`bash`, `su`: it inherits the prompt command): the foreground
// group, not the top-level one, was confirmed reading the terminal with
// nothing in flight, and the newest output is a counted prompt that
// answers the send. That shell printed it and waits at it: the send
// settles on it, with its command's exit code.
func (sess *session) shellReadsAtPrompt(p *settleParams) (settleOutcome, bool) {
	sess.mu.Lock()
	marks, total := sess.buf.Marks(), sess.buf.Total()
	sess.mu.Unlock()
	if !marks.InputLineValid || !promptAnswers(p, marks, total) {
		return settleOutcome{}, false
	}
	return promptOutcome(p, marks), true
}

// readWatch is the exact tier: the foreground group blocked reading the
// terminal, newly since the write, with its input consumed and its output
// read. Probes follow probeSchedule after each burst of output; a wait is
// confirmed by a second probe confirmDelay later with no output in
// between, so output a program wrote just before it blocked (still in the
// kernel or in our reader) is never cut off.
type readWatch struct {
	idx             int           // position in probeSchedule
	lastSeen        time.Time     // the output time the schedule started from
	candidate       bool          // a foreground read was seen once
	candidateOutput time.Time     // lastOutput when it was seen
	candidateQuiet  time.Duration // quietFor when it was seen
	leader          bool          // the confirmed reader is the top-level group
	hidden          bool          // the confirmed reader reads a hidden line
}

// step probes if one is due; it reports whether the wait is confirmed and
// how long until the next probe.
func (w *readWatch) step(sess *session, p *settleParams, lastOutput time.Time, quietFor time.Duration) (bool, time.Duration) {
	if lastOutput != w.lastSeen {
		w.lastSeen, w.idx = lastOutput, 0
	}
	if w.candidate && lastOutput != w.candidateOutput {
		w.candidate = false
	}
	confirm := confirmDelay
	if !lastOutput.After(p.start) {
		confirm = silentConfirmDelay
	}
	due := probeDue(w.idx)
	if w.candidate {
		due = w.candidateQuiet + confirm
	}
	if quietFor < due {
		return false, due - quietFor
	}
	if owed := sess.replyPending(time.Now()); owed > 0 {
		// The program asked the terminal something and reads the
		// answer a tap's reader owes it: Tap.Reply wakes the wait, or
		// the bound ends the hold.
		w.candidate = false
		return false, owed
	}
	fg, ok := sess.inputWait(p.base)
	reading := ok && fg.Waiting && !fg.Relay && !(sess.relay && fg.Now.Leader) && (p.initial || fg.New) &&
		!sess.eventLoopBusy(p, fg, quietFor)
	switch {
	case reading && w.candidate:
		w.leader, w.hidden = fg.Now.Leader, fg.Hidden || fg.Dialog && !sess.cursorHidden()
		return true, 0
	case reading:
		w.candidate, w.candidateOutput, w.candidateQuiet = true, lastOutput, quietFor
		return false, confirm
	}
	w.candidate = false
	w.idx++
	due = probeDue(w.idx)
	if due <= quietFor {
		due = quietFor + probeRepeat
	}
	return false, due - quietFor
}

// eventLoopBusy reports whether a read by an event loop (fg.EventLoop) or
// by a thread other than its process's first (fg.SideThread) is a program
// still at work rather than one waiting for its next input. An event loop
// watches the terminal while it works (Node's REPL awaiting a promise
// reads it all along), and so may a reading thread while another thread
// works (jshell's), so such a read alone proves nothing:
//
//   - A program that showed a prompt before the send (p.promptShown) and
//     whose output now ends on a complete line has not shown its next
//     prompt: the send waits for it, or for the quiet window. The prompt
//     must be the reader's own: the same process group held the terminal
//     before the write. A program that showed no prompt (a line-reading
//     script) settles on its read as any other.
//   - A program the send (or the open) started may watch the terminal
//     long before it is ready: node inspect reads it while its debuggee
//     starts, and drops what is typed meanwhile. Its read settles once its
//     output ends in a prompt (looksLikeProgramPrompt), or after
//     eventLoopStartQuiet of quiet (a script that prints no prompt).
//     A reading thread's program is not held back so (a Go program's
//     read may move to another thread at any time).
//   - A reading thread's program is held back only after a console's
//     prompt (p.replPrompt): a Java program that asked "Name: " and
//     prints its next question on a line of its own reads on its main
//     thread, which is never its process's first, and has answered.
func (sess *session) eventLoopBusy(p *settleParams, fg InputWait, quietFor time.Duration) bool {
	if !fg.EventLoop && !fg.SideThread {
		return false
	}
	sess.mu.Lock()
	line, open := sess.openLineLocked(maxPromptLine + 64)
	sess.mu.Unlock()
	if p.initial || p.base.Group == 0 || fg.Now.Group != p.base.Group {
		return fg.EventLoop && quietFor < eventLoopStartQuiet && !(open && looksLikeProgramPrompt(line))
	}
	return p.promptShown && !open && (fg.EventLoop || p.replPrompt)
}

// eventLoopStartQuiet is how long an event loop a send started must be
// quiet, without a prompt, before its read settles the send.
const eventLoopStartQuiet = 500 * time.Millisecond

// latest returns the latest of the times.
func latest(ts ...time.Time) time.Time {
	var l time.Time
	for _, t := range ts {
		if t.After(l) {
			l = t
		}
	}
	return l
}

func probeDue(i int) time.Duration {
	if i < len(probeSchedule) {
		return probeSchedule[i]
	}
	return probeSchedule[len(probeSchedule)-1] + time.Duration(i-len(probeSchedule)+1)*probeRepeat
}

// inputWait asks the backend whether the program waits for input, with
// nothing in flight, since base; ok is false when the backend cannot tell.
func (sess *session) inputWait(base InputBaseline) (InputWait, bool) {
	if !sess.watchesInput {
		return InputWait{}, false
	}
	sess.mu.Lock()
	taken := sess.ingested
	sess.mu.Unlock()
	w, err := sess.probe.InputWait(base, taken)
	return w, err == nil
}

// leaderInForeground reports whether the session's top-level process group
// holds the terminal (the backend's cheap look); ok is false when the
// backend cannot tell.
func (sess *session) leaderInForeground() (leader, ok bool) {
	_, leader, ok = sess.foregroundGroup()
	return leader, ok
}

// foregroundGroup tells which process group holds the terminal and
// whether it is the top-level process's own: the backend's cheap look
// (Prober.ForegroundGroup), or its Foreground where it has none (an
// agent's session); ok is false when the backend cannot tell.
func (sess *session) foregroundGroup() (group int, leader, ok bool) {
	if !sess.watchesInput {
		return 0, false, false
	}
	if g, leader, err := sess.probe.ForegroundGroup(); !errors.Is(err, ErrUnsupported) || g != 0 {
		return g, leader, err == nil || g != 0
	}
	b, err := sess.probe.Foreground()
	return b.Group, b.Leader, err == nil || b.Group != 0
}
