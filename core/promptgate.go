package core

import (
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// Which prompt may settle a send.
//
// A shell prints its prompt marker before it reads the next input, so a
// marker that arrives after a send's write may still be one printed before
// the shell read that write: the prompt of a command that was just
// finishing, of a line typed by an earlier Write, of a Ctrl-C, or the first
// prompt of a shell that was spawned without waiting. And a send holding
// several lines sees one prompt per line. Settling on such a prompt returns
// before the command ran.
//
// The shell's D marker says two more things (the "shell" type and the
// remote marker install print them): line=N, the count of input lines the
// shell has read (bash's LINENO: every line, empty, a comment or a syntax
// error, and the Ctrl-C that abandons a line, counts), and inq=1 when more
// typed input was waiting as the shell came back to its prompt (bash's
// `read -t 0`, a select(2) on the terminal, which sees every byte written
// to the terminal before it). The service keeps a bound on the count: no
// prompt with line <= bound can answer input written later. Every write
// raises the bound by the line ends it holds (a line the shell reads raises
// its count by one at most), a Ctrl-C at a prompt raises it by one over
// the bound before the signal was delivered (interruptMark: its prompt
// may be in first), and a send that settled on a prompt sets it to that
// prompt's count (the shell had read everything by then), as does a send
// that finds the shell waiting at its prompt (resyncIdleLocked). A send settles on a prompt only when:
//   - its count exceeds the bound taken before the send's write (the shell
//     read at least one line of it), or the shell was running a command
//     that had taken all earlier input (a REPL or `read` that the send
//     feeds, which returns to the shell's prompt), and
//   - no input was pending when it was printed (not an intermediate prompt
//     of a multi-line send).
//
// Before any input was written the bound is 0: a shell counts no line
// before it reads one (bash's LINENO is 0 at its first prompt, whatever its
// startup files hold), so its own first prompt cannot answer a send, and
// the prompt after the send's first line (a remote shell's marker being
// installed) can. After input but before any marker with a count was seen
// (lines typed to another reader first, such as a login), the first new
// prompt is taken for a stale one. Markers without a count (another shell
// integration, a test child) settle on any new prompt.

// promptGate is what one send asks of a prompt, fixed at the send's start.
type promptGate struct {
	// any: every new prompt counts (the initial wait, the reaction to an
	// interrupt, markers without a line count).
	any bool
	// anchored: bound is known; without it the first new D marker is
	// taken for a stale one.
	anchored bool
	bound    int64
	// running: the shell was running a command that had taken every
	// earlier input, so the prompt that ends it answers this send.
	running bool
}

// admits reports whether the newest prompt (with marks, the send having
// started at marks0) may settle the send.
func (g promptGate) admits(marks, marks0 scrollback.Marks) bool {
	if g.any || !marks.InputLineValid {
		return true
	}
	switch {
	case marks.CommandEnds <= marks0.CommandEnds:
		// No new D marker: a prompt redrawn, or a line the shell
		// refused before its prompt command ran.
		return false
	case marks.InputPending:
		return false
	case g.running:
		return true
	case g.anchored:
		return marks.InputLine > g.bound || anotherShellsPrompt(marks, marks0)
	default:
		return marks.CommandEnds >= marks0.CommandEnds+2
	}
}

// anotherShellsPrompt reports that the newest prompt is another shell's
// than the newest one before the send, and that shell has read
// input before: the session's shell after a nested one (bash, su) exited,
// or a nested shell that read the rest of a send that started it. Its
// count is its own, not comparable with the bound (the session's shell
// read one line, `bash`, while the nested one read many), and it can
// print a prompt only once the shell before it read what made it exit or
// start. A nested shell's first prompt counts no line and is left to the
// read tier, as before anything runs in it.
func anotherShellsPrompt(marks, marks0 scrollback.Marks) bool {
	return marks.Shell != 0 && marks0.Shell != 0 && marks.Shell != marks0.Shell && marks.InputLine > 0
}

// gateLocked returns the gate of a send starting now. sess.mu is held.
func (sess *session) gateLocked() promptGate {
	m := sess.buf.Marks()
	g := promptGate{running: sess.running}
	if sess.inBoundSet {
		g.anchored, g.bound = true, sess.inBound
	}
	if m.InputLineValid {
		g.anchored, g.bound = true, max(g.bound, m.InputLine)
	}
	if !g.anchored && sess.noted == 0 && sess.writing == 0 {
		// No input yet: the shell has read none of it (bound 0).
		g.anchored = true
	}
	return g
}

// noteInputLocked accounts for input about to be written to the
// terminal: a line the shell reads raises its count by one at most. The
// caller calls wrote once the backend's write returned. takesTerminal
// says the input may start a command (typed at the shell's prompt), which
// ends the belief that a command is running; input typed into a hidden
// read (echo off in canonical mode: a password prompt, never the shell's
// line editor) feeds the command that reads it, and the prompt that ends
// that command still answers the next send. keys says the input is a
// NoSubmit send's, which the command line follows (commandLine). sess.mu
// is held.
func (sess *session) noteInputLocked(data []byte, takesTerminal, keys bool) {
	sess.cmdLine.typed(sess.buf.Marks(), data, keys)
	n := int64(0)
	for _, c := range data {
		if c == '\r' || c == '\n' {
			n++
		}
	}
	sess.raiseBoundLocked(n)
	sess.noted += n
	sess.writing++
	if takesTerminal {
		sess.running = false
	}
}

// raiseBoundLocked raises the line bound by n lines. Before any marker
// with a count was seen the bound stays unknown. sess.mu is held.
func (sess *session) raiseBoundLocked(n int64) {
	m := sess.buf.Marks()
	switch {
	case m.InputLineValid:
		sess.inBound, sess.inBoundSet = max(sess.inBound, m.InputLine)+n, true
	case sess.inBoundSet:
		sess.inBound += n
	}
}

// interruptMark is the accounting as it stood just before a SIGINT was
// delivered. The shell may react to the signal (abandon its line, count
// it, print a new prompt) and the service take that prompt in before the
// delivery's result is back: kill(2) returns after the shell could run,
// a loaded machine deschedules the caller before it takes sess.mu again,
// and a remote backend's answer may follow the output the signal caused.
// A raise reckoned from the marks seen after the delivery would then
// count the abandoned line twice (the newest marker already holds it):
// the bound would stay one line ahead of the shell, and the next send
// would refuse the prompt after its own command and settle late on the
// shell's read (stdin_read) or on silence. So the interrupt's raise is
// reckoned from the mark.
type interruptMark struct {
	bound int64 // max(inBound, the newest marker's count) before delivery
	valid bool  // bound is known
	noted int64 // sess.noted before delivery
}

// interruptMarkLocked takes the mark of a SIGINT about to be delivered.
// sess.mu is held.
func (sess *session) interruptMarkLocked() interruptMark {
	k := interruptMark{noted: sess.noted}
	if sess.inBoundSet {
		k.bound, k.valid = sess.inBound, true
	}
	if m := sess.buf.Marks(); m.InputLineValid {
		k.bound, k.valid = max(k.bound, m.InputLine), true
	}
	return k
}

// noteInterruptLocked accounts for a SIGINT delivered after k was taken:
// at a prompt, bash abandons the line and counts it, and prints a new
// prompt. atPrompt says whether the shell held the terminal; known false
// means the backend could not tell, and then the session's own belief (a
// command running) decides. sess.mu is held.
func (sess *session) noteInterruptLocked(k interruptMark, atPrompt, known bool) {
	if !known {
		atPrompt = !sess.running
	}
	if atPrompt {
		if k.valid {
			// One line more than before the delivery, besides the
			// lines written (and interrupts counted) since.
			b := k.bound + 1 + (sess.noted - k.noted)
			if !sess.inBoundSet || b > sess.inBound {
				sess.inBound = b
			}
			sess.inBoundSet = true
		} else {
			sess.raiseBoundLocked(1)
		}
		sess.noted++
	}
	sess.running = false
}

// noteSettledLocked updates the accounting when a send settled;
// shellReading says the shell itself was the confirmed reader of a
// stdin_read. sess.mu is held.
func (sess *session) noteSettledLocked(reason WaitReason, shellReading bool) {
	sess.lastSettle = reason
	m := sess.buf.Marks()
	atPrompt := m.AtPrompt()
	switch reason {
	case WaitPrompt:
		if m.InputLineValid {
			sess.inBound, sess.inBoundSet = m.InputLine, true
		}
		sess.running = false
	case WaitStdinRead:
		// The shell blocked at its prompt with every byte read and every
		// output taken in: the newest marker is that prompt's. Any
		// other reader (a program, or the shell's own `read`) took every
		// byte; the shell's next prompt ends it.
		idle := shellReading && atPrompt
		if idle && m.InputLineValid {
			sess.inBound, sess.inBoundSet = m.InputLine, true
		}
		sess.running = !idle
	case WaitRemotePrompt:
		// A client (ssh, su, script) holds the terminal or the marked
		// shell runs a command on the far side: the prompt was that
		// program's (a shell it runs may mark its prompts with counts
		// of its own), and the session's shell's next one ends it.
		sess.running = true
	case WaitInferredIdle, WaitTimeout:
		sess.running = !atPrompt
	}
}

// wrote ends a write that noteInputLocked accounted for.
func (sess *session) wrote() {
	sess.mu.Lock()
	sess.writing--
	sess.mu.Unlock()
}

// A shell waiting at its prompt has read every line: its count is the
// newest marker's. That resets a bound left ahead of it by a Ctrl-C that
// bash took outside its line editor (a loop or a read the shell runs
// itself, its prompt command): the signal reached the shell's own group,
// was counted, and bash counted no line. Without the reset the next send
// would refuse the prompt after its own command and settle late.

// idleMark is what a send's baseline probe saw: the shell's own group
// waiting for input, with nothing in flight (waiting), and the accounting
// and output as they stood before the probe.
type idleMark struct {
	waiting    bool
	quiet      bool // no write was in flight before the probe
	noted      int64
	lastOutput time.Time
}

// idleMarkLocked takes the accounting before a baseline probe. sess.mu is
// held.
func (sess *session) idleMarkLocked() idleMark {
	return idleMark{quiet: sess.writing == 0, noted: sess.noted, lastOutput: sess.lastOutput}
}

// resyncIdleLocked sets the bound to the newest marker's count when k saw
// the shell waiting at its prompt and nothing changed since: no output
// (the marks are those of the probe, which had taken all output in), no
// input noted or in flight (every line written had reached the shell),
// no interrupt counted (one delivered but not yet counted raises the bound
// from its own mark, taken before). The newest output must be a marked
// prompt: a shell blocked in a read of its own has printed the command
// line after it. sess.mu is held.
func (sess *session) resyncIdleLocked(k idleMark) {
	if !k.waiting || !k.quiet || sess.relay || sess.writing != 0 || sess.noted != k.noted || !sess.lastOutput.Equal(k.lastOutput) {
		return
	}
	m := sess.buf.Marks()
	if !m.InputLineValid || !m.AtPrompt() {
		return
	}
	sess.inBound, sess.inBoundSet = m.InputLine, true
	sess.running = false
}
