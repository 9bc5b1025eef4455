package ptysession

import (
	"context"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// SignalResult says what a signal reached (see [core.SignalResult]) and
// what followed.
type SignalResult struct {
	// Signal is the canonical name of the signal sent ("SIGINT").
	Signal Signal `json:"signal"`
	core.SignalResult
	// Output is what the session printed after the signal, until it went
	// quiet (at most a few seconds; the newest part is kept), after any
	// output the owner had not been given yet. Like a send's delta it moves
	// the owner's tail position past it (output is returned once).
	Output string `json:"output"`
	// Truncated reports that older parts of Output were dropped.
	Truncated bool `json:"truncated,omitempty"`
	// Foreground is the program that still held the terminal, busy, when
	// the result was taken after a signal to a job: it ignored the signal
	// ([core.SignalResult].Ignored), handled it and ran on, or is slow to
	// end. nil when the shell or a program reading the terminal has it, or
	// where the seam cannot tell.
	Foreground *core.ForegroundProgram `json:"foreground,omitempty"`
	// Note says what the signal did not do and what does it instead: for
	// SIGCONT to the shell, that a job it stopped resumes with fg.
	Note string `json:"note,omitempty"`
}

// continueNote is the Note of SIGCONT delivered to a session's shell.
const continueNote = `the shell runs already and a job it stopped is not the terminal's foreground: send "fg" (or "bg") to resume the job`

// Signal sends a signal to the session's foreground process group. sig
// (a constant such as SIGINT, or any string) is one of SIGINT, SIGTERM,
// SIGKILL, SIGTSTP, SIGHUP, SIGQUIT, SIGCONT, with or without the SIG
// prefix, in any case. When the shell is idle its own group is the
// foreground: SIGKILL aimed at it is refused (SIGNAL_REFUSED: close the
// session instead), other signals reach it, and SIGHUP ends it (an
// interactive shell ignores SIGTERM, SIGQUIT and SIGTSTP). In argv mode
// (see [CommandMode]) no shell exists: the top-level process is the
// program, and every signal reaches it (SIGKILL ends the session). The
// result holds what the session printed after the signal, until its
// output went quiet and, after a signal to a job, until the session waits
// for input again where the seam can tell (five seconds at most), so the
// next send is typed at the shell's prompt, not while the shell takes the
// terminal back; it moves owner's tail position past that output, as a
// send's delta does: a later Tail starts after it. On the local backend an
// interrupt that bash holds back between two commands of a typed list
// (it reached the shell, or the next command before it ran its program)
// is followed up on the command the shell starts in spite of it. To a
// program that reads the terminal raw (Node's REPL, an editor, an ssh
// client typed into the shell, jshell), SIGINT, SIGQUIT and SIGTSTP are
// typed as the key a person would press, which the program handles
// itself ([core.SignalResult].Raw).
func (s *Sessions) Signal(ctx context.Context, owner *core.Owner, id core.SessionID, sig Signal) (SignalResult, error) {
	const op = "signal"
	if err := checkCall(ctx, op, owner, id); err != nil {
		return SignalResult{}, err
	}
	name, ok := ParseSignal(string(sig))
	if !ok {
		return SignalResult{}, invalid(op, id, "signal", "%s is not one of %s", core.QuoteForMsg(string(sig)), signalNames())
	}
	w := s.watchOutput(owner, id)
	r, err := s.t.Signal(ctx, owner, id, core.SignalRequest{Signal: name, AllowLeader: s.opts.argvMode()})
	if err != nil {
		if w != nil && w.tap != nil {
			w.tap.Close()
		}
		return SignalResult{}, err
	}
	res := SignalResult{Signal: name, SignalResult: r}
	shellContinued := name == core.SIGCONT && r.Delivered && r.Leader && !s.opts.argvMode()
	if shellContinued {
		res.Note = continueNote
	}
	if (!r.Delivered || r.Ignored || shellContinued) && w != nil && w.tap != nil {
		// Nothing follows a signal that was not delivered, that every
		// process of its group ignores, or SIGCONT to a running shell.
		w.tap.Close()
		w.tap = nil
	}
	job := r.Delivered && !r.Leader
	res.Output, res.Truncated, _ = w.finish(ctx, job && !r.Ignored)
	if job {
		res.Foreground = s.busyForeground(owner, id)
	}
	return res, nil
}

// foregrounder is implemented by terminals that tell which program holds
// a session's terminal (the real service; the reference registry does not).
type foregrounder interface {
	Foreground(owner *core.Owner, id core.SessionID) (*core.ForegroundProgram, error)
}

// busyForeground is the program other than the session's top-level one
// that holds its terminal and does not read it, or nil.
func (s *Sessions) busyForeground(owner *core.Owner, id core.SessionID) *core.ForegroundProgram {
	f, ok := s.t.(foregrounder)
	if !ok {
		return nil
	}
	p, err := f.Foreground(owner, id)
	if err != nil || p == nil || p.Reading {
		return nil
	}
	return p
}

// ParseSignal returns the allowed signal sig names ("int", "SIGINT" and
// "INT" all name SIGINT).
func ParseSignal(sig string) (core.Signal, bool) {
	n := strings.ToUpper(strings.TrimSpace(sig))
	if !strings.HasPrefix(n, "SIG") {
		n = "SIG" + n
	}
	s := core.Signal(n)
	return s, s.Valid()
}

func signalNames() string {
	names := make([]string, len(core.AllowedSignals))
	for i, s := range core.AllowedSignals {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
