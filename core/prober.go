package core

import "errors"

// A backend session is the terminal contract, [BackendSession], plus at
// most two optional interfaces the service finds by type assertion once,
// when it publishes the session:
//
//   - [Prober]: every question the service asks about the terminal (is
//     the program waiting for input, who holds the terminal, its echo
//     mode, ...) and the session's fixed facts ([Facts]). A backend that
//     cannot answer a question returns [ErrUnsupported]; embedding
//     [UnimplementedProber] answers every question so, and the backend
//     overrides what it knows.
//   - [TryIO]: reads and writes that never block, the fast path of a
//     backend that has one.
//
// A session that implements neither is a plain terminal: Enter is "\r",
// sends settle on the prompt marker, exit and silence, and the questions
// fail with CodeUnsupported.

// Prober answers the service's questions about a session's terminal. The
// service asks Facts once, when it publishes the session, and the other
// questions whenever it needs them; they may be called concurrently with
// each other and with the session's other methods, and none of them may
// block on the session's Read.
//
// A question the backend cannot answer, now or ever, returns an error
// matching [ErrUnsupported] with errors.Is (ErrUnsupported itself, or a
// CodeUnsupported [*Error] that says why, such as "needs Linux /proc").
// Embed [UnimplementedProber] to answer every question that way, and
// override the ones the backend knows.
type Prober interface {
	// Facts returns what does not change over the session's life.
	Facts() Facts

	// Foreground is a cheap look (no walk of the program's processes) at
	// who holds the terminal: Group and Leader, and when Leader, Wakes
	// and Readers of the top-level process's main thread alone (a valid
	// baseline for a shell whose main thread is its terminal's only
	// reader; with any other reader, a later InputWait finds other
	// Readers and reports the wait New). On an error, Group and Leader
	// are still filled when the holder was known. Asked only when
	// [Facts].WatchesInput.
	Foreground() (InputBaseline, error)
	// InputWait answers the settle question, "does the program wait for
	// input, with nothing in flight, since base?" (base zero: any wait is
	// new). taken counts the bytes of Read's output the service has taken
	// in; output Read returned beyond it is in flight. The service asks
	// it to settle sends with [WaitStdinRead], to tell a shell at its
	// prompt from a running command, and for [Service.WaitingForInput].
	// Asked only when [Facts].WatchesInput; an error means "cannot tell
	// now", and the service settles on other evidence.
	InputWait(base InputBaseline, taken uint64) (InputWait, error)
	// WarmBaseline prepares the next Foreground, for a backend whose
	// first look costs more than a look again while nothing ran (the
	// local PTY backend: a /proc status read, then a schedstat read). The
	// service calls it from the session's read loop after a send settled
	// on the shell's prompt marker, once the send's caller has been
	// woken: the shell is about to wait at its prompt, and the next
	// send's baseline can be taken from a reading made now, off that
	// send's path. It must not block on the session's own locks; a
	// backend with nothing to warm does nothing.
	WarmBaseline()
	// ForegroundGroup tells who holds the terminal with one cheap look
	// (the local backend: one TIOCGPGRP ioctl), without the wake-up count
	// Foreground also reads: the terminal's foreground process group and
	// whether it is the top-level process's own. The prompt tier asks it
	// when a prompt marker arrives; on ErrUnsupported the service asks
	// Foreground instead.
	ForegroundGroup() (group int, leader bool, err error)
	// DescribeForeground describes the program holding the terminal (the
	// local backend: /proc) and reports whether it is the top-level
	// process's own group. The service asks it once when a send settles
	// as inferred_idle or timeout ([ForegroundProgram]).
	DescribeForeground() (p ForegroundProgram, leader bool, err error)
	// DescribeReader describes the terminal's foreground group, every
	// program in it ([Service.Reader]).
	DescribeReader() (TerminalReader, error)
	// InputRead counts the terminal input the foreground group read (the
	// local backend on Linux, from /proc). Two counts taken around a
	// write tell whether input vanished from the terminal unread: the
	// program flushed it (tcflush, as top does when it opens a prompt).
	// See [Service.InputRead].
	InputRead() (InputRead, error)
	// EchoMode reads the terminal's echo mode now. With it the service
	// reports input written while the terminal reads a hidden line to
	// observers without its bytes ([Event].Secret), and every input event
	// carries the mode ([Event].Echo). An error reads as [EchoUnknown].
	EchoMode() (EchoMode, error)
	// ControlChar returns the terminal's key for sig ([ControlKey]): the
	// character its line discipline turns into sig (VINTR for SIGINT,
	// VQUIT for SIGQUIT, VSUSP for SIGTSTP) and whether the program
	// holding it reads it raw; an error when it cannot tell. The service
	// asks it before SIGINT, SIGQUIT and SIGTSTP: to a raw reader, and
	// through a relay, they travel as the key.
	ControlChar(sig Signal) (ControlKey, error)
	// OutputEnd returns how many bytes of output Read will have returned
	// once it has read what the terminal shows now: what Read returned so
	// far plus what waits in the terminal. complete reports that the
	// terminal showed everything written to it before the call (nothing
	// was still on its way through the kernel, and no read was under way
	// during the look); otherwise end is only a lower bound, and the
	// caller looks again once Read got that far ([Service.DrainOutput]).
	OutputEnd() (end uint64, complete bool, err error)
	// ExitCause returns, once the session has exited, a cause a caller
	// should be able to match with errors.Is (a lost ssh connection
	// matches ssh.ErrConnectionLost): the SESSION_EXITED errors of later
	// calls wrap it. nil for an ordinary exit; never ErrUnsupported.
	ExitCause() error
}

// Facts is what a [Prober] says once about its session.
type Facts struct {
	// Enter is the Enter key's bytes; nil is "\r". A pipe backend, whose
	// programs read lines, says "\n".
	Enter []byte
	// PromptMarker: the session runs a shell known to print the OSC
	// 133;B prompt marker (the local "shell" type). The service then
	// waits for the first prompt before Spawn returns, rather than for
	// silence or a terminal read.
	PromptMarker bool
	// WatchesInput: the session answers Foreground and InputWait (an
	// answer may still fail now and then). Without it the service never
	// asks them and settles on the prompt marker, exit and silence.
	WatchesInput bool
}

// UnimplementedProber answers every question of [Prober] with
// [ErrUnsupported] (ExitCause with nil, WarmBaseline with nothing, Facts
// with the zero Facts). Embed it in a backend session and override the
// questions the backend can answer.
type UnimplementedProber struct{}

// Facts returns the zero Facts: Enter "\r", no prompt marker, no input
// watching.
func (UnimplementedProber) Facts() Facts { return Facts{} }

// Foreground returns ErrUnsupported.
func (UnimplementedProber) Foreground() (InputBaseline, error) {
	return InputBaseline{}, ErrUnsupported
}

// InputWait returns ErrUnsupported.
func (UnimplementedProber) InputWait(InputBaseline, uint64) (InputWait, error) {
	return InputWait{}, ErrUnsupported
}

// WarmBaseline does nothing.
func (UnimplementedProber) WarmBaseline() {}

// ForegroundGroup returns ErrUnsupported.
func (UnimplementedProber) ForegroundGroup() (int, bool, error) { return 0, false, ErrUnsupported }

// DescribeForeground returns ErrUnsupported.
func (UnimplementedProber) DescribeForeground() (ForegroundProgram, bool, error) {
	return ForegroundProgram{}, false, ErrUnsupported
}

// DescribeReader returns ErrUnsupported.
func (UnimplementedProber) DescribeReader() (TerminalReader, error) {
	return TerminalReader{}, ErrUnsupported
}

// InputRead returns ErrUnsupported.
func (UnimplementedProber) InputRead() (InputRead, error) { return InputRead{}, ErrUnsupported }

// EchoMode returns EchoUnknown and ErrUnsupported.
func (UnimplementedProber) EchoMode() (EchoMode, error) { return EchoUnknown, ErrUnsupported }

// ControlChar returns ErrUnsupported.
func (UnimplementedProber) ControlChar(Signal) (ControlKey, error) {
	return ControlKey{}, ErrUnsupported
}

// OutputEnd returns ErrUnsupported.
func (UnimplementedProber) OutputEnd() (uint64, bool, error) { return 0, false, ErrUnsupported }

// ExitCause returns nil: an ordinary exit.
func (UnimplementedProber) ExitCause() error { return nil }

var _ Prober = UnimplementedProber{}

// ProberOf returns s's [Prober], or an [UnimplementedProber] when s has
// none. It is the one place the service (and a backend that wraps another
// backend's sessions) looks for it.
func ProberOf(s BackendSession) Prober {
	if p, ok := s.(Prober); ok {
		return p
	}
	return UnimplementedProber{}
}

// TryIO is implemented by a backend session that can read and write
// without waiting (the local PTY backend).
//
// A send first offers its data to TryWrite on the caller's goroutine: a
// terminal with room takes it at once, and the send pays no hand-off to a
// writing goroutine. Whatever is left (a full terminal, another write in
// progress) goes through the cancellable BackendSession.Write, so a write
// into a terminal that does not read still ends with the send's context.
//
// A reader that forwards output in frames (the remote agent) gathers with
// TryRead what the terminal already holds after a Read returned, so that a
// flood leaves in a few large frames instead of one per read system call,
// and a quiet terminal's output leaves at once.
type TryIO interface {
	// TryRead reads into p what the terminal holds now and returns how
	// much that was; it never blocks. It returns 0 and no error when
	// nothing is there, at the end of output, and once the program has
	// exited: Read drains what is left and reports the end by its own
	// rules. An error is unexpected (the caller leaves it to Read too).
	TryRead(p []byte) (int, error)
	// TryWrite writes as much of p as the terminal takes now and returns
	// how much that was; it never blocks. It returns 0 and no error when
	// nothing could be written without waiting; an error only when the
	// terminal is gone (the caller then leaves the rest to Write, which
	// reports it).
	TryWrite(p []byte) (int, error)
}

// unsupportedProbe reports whether err is a bare "cannot answer" (the
// sentinel itself, or a CodeUnsupported error that says no more): the
// service then says in its own words what the backend cannot tell.
func unsupportedProbe(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeUnsupported && e.Msg == "" && e.Err == nil
}
