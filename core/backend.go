package core

import "context"

// Backend starts sessions of one stable type ("shell", "exec", "ssh",
// "pipe", ...). Register it with [Service.Register].
type Backend interface {
	// Type returns the stable, non-empty type string requests select.
	Type() string
	// Spawn starts a program and returns an unpublished session. On error
	// it must have cleaned up everything it made; if that cleanup failed
	// it returns a *CleanupError whose Cause is the original failure. A
	// cancelled ctx must abort the spawn the same way.
	Spawn(ctx context.Context, req BackendRequest) (BackendSession, error)
}

// BackendRequest is what a backend receives. The service has validated it:
// Env entries are NAME=VALUE with valid names, Size is non-zero.
type BackendRequest struct {
	// Command is the argv. Shell-type backends run their default
	// interactive shell when it is empty, and otherwise run it as the
	// shell's program (see the backend's documentation).
	Command []string
	// Dir is the working directory ("" keeps the backend's default).
	Dir string
	// Env holds extra NAME=VALUE variables for the program.
	Env []string
	// Size is the initial terminal size.
	Size Size
	// Options carries backend-specific settings (for example the ssh
	// target). Backends document which type they accept.
	Options any
	// Marker is a value unique to this session that the backend may use to
	// recognise the session's processes (for example as an environment
	// variable they inherit).
	Marker string
}

// BackendSession is one running program on a terminal, owned by the
// service once published. Its methods may be called concurrently, except
// that Read is only ever called from one goroutine.
type BackendSession interface {
	// PID returns the top-level process id, or 0 where there is none to
	// name (a remote program).
	PID() int
	// Read reads raw terminal output. It returns io.EOF once no more output
	// will come: when the terminal reports end of output, or when the
	// top-level process has exited and what it printed has been drained.
	// Every byte the program wrote before exiting must be returned before
	// io.EOF.
	Read(p []byte) (int, error)
	// Write writes input to the terminal. It must return when ctx is done,
	// even if the program does not read.
	Write(ctx context.Context, p []byte) (int, error)
	// Exited is closed when the top-level process has exited.
	Exited() <-chan struct{}
	// ExitStatus returns the exit status once Exited is closed, and
	// [Running] before.
	ExitStatus() Status
	// Signal delivers sig to the terminal's verified foreground process
	// group. It refuses SIGKILL to the top-level group with
	// ErrSignalRefused unless req.AllowLeader is set.
	Signal(ctx context.Context, req SignalRequest) (SignalResult, error)
	// Resize changes the terminal size; the program sees SIGWINCH.
	Resize(ctx context.Context, size Size) error
	// Close terminates every process the session started and releases the
	// terminal. It returns only when they are gone, or a *CleanupError
	// naming survivors. A failed Close may be retried. Close after a
	// successful Close returns nil.
	Close(ctx context.Context) error
}

// InputWatcher is implemented by backend sessions that can tell whether
// the program waits for terminal input (the local PTY backend, through
// /proc on Linux). The service asks it one question, "does the program
// wait for input, with nothing in flight, since this baseline?", to settle
// sends with [WaitStdinRead], to tell a shell at its prompt from a running
// command, and for [Service.WaitingForInput]. A backend that cannot tell
// does not implement it or returns an error, and the service settles on
// other evidence (the prompt marker, exit, silence).
type InputWatcher interface {
	// Foreground is a cheap look (no walk of the program's processes) at
	// who holds the terminal: Group and Leader, and when Leader, Wakes and
	// Readers of the top-level process's main thread alone (a valid
	// baseline for a shell whose main thread is its terminal's only
	// reader; with any other reader, a later InputWait finds other
	// Readers and reports the wait New). On an error, Group and Leader
	// are still filled when the holder was known.
	Foreground() (InputBaseline, error)
	// InputWait answers the question against base (zero: any wait is
	// new). taken counts the bytes of Read's output the service has taken
	// in; output Read returned beyond it is in flight.
	InputWait(base InputBaseline, taken uint64) (InputWait, error)
}

// BaselineWarmer is implemented by an [InputWatcher] whose Foreground
// costs more on its first look than on a look again while nothing ran
// (the local PTY backend: a /proc status read, then a schedstat read).
// The service calls WarmBaseline from the session's read loop after a send
// settled on the shell's prompt marker, once the send's caller has been
// woken: the shell is about to wait at its prompt, and the next send's
// baseline can be taken from a reading made now, off that send's path.
// WarmBaseline must not block on the session's own locks.
type BaselineWarmer interface {
	WarmBaseline()
}

// InputBaseline marks who holds the terminal, which of its tasks wait for
// input and how far their wait has got.
type InputBaseline struct {
	Group  int  // the foreground process group ([SignalResult.TargetPGID]'s ids), 0 when unknown
	Leader bool // Group is the top-level process's own (a shell at its prompt)
	// Wakes counts how often the holder's tasks waiting on the terminal
	// woke and blocked again; only equality means anything.
	Wakes uint64
	// Readers names the tasks Wakes counts: the thread id of a lone
	// reader; for several, a fingerprint of their ids with the top bit
	// set (never a thread id); 0 when none waits or the backend does not
	// tell. Wakes alone cannot tell two waits apart when the reading
	// thread changed in between (a Go, JVM or Node program): another
	// thread can block with the count the old one had.
	Readers uint64
}

// Differs reports whether b marks another wait than base: another group,
// other readers, or a reader that woke since. Readers count only when both
// name them: a baseline from a backend or remote peer that does not is
// compared on Group and Wakes, as before there were Readers.
func (b InputBaseline) Differs(base InputBaseline) bool {
	if b.Group != base.Group || b.Wakes != base.Wakes {
		return true
	}
	return b.Readers != 0 && base.Readers != 0 && b.Readers != base.Readers
}

// InputWait is a backend's answer to the service's question.
type InputWait struct {
	Now     InputBaseline // where things stand: a baseline for a later question
	Reading bool          // every live process of the foreground sleeps, one blocked reading the terminal
	// Waiting is Reading with nothing in flight: no typed input left, no
	// output in the terminal or the backend, and all output Read returned
	// taken in. A settled wait needs it, so output printed just before a
	// program blocked is never cut off.
	Waiting bool
	New     bool // Now.Differs(base): the wait began after the baseline
	// Relay: a task blocked on the terminal also waits on a TCP socket, so
	// it forwards the terminal to a peer (an ssh client) and its wait says
	// nothing about the far end. The service does not settle on it.
	Relay bool
}

// PromptMarker is implemented by backend sessions that run a shell known to
// print the OSC 133;B prompt marker (the local "shell" type). For them the
// service waits for the first prompt before Spawn returns, rather than for
// silence or a terminal read.
type PromptMarker interface {
	EmitsPromptMarker() bool
}

// EnterProvider is implemented by backends whose Enter key is not "\r"
// (for example a pipe backend, whose programs expect "\n").
type EnterProvider interface {
	Enter() []byte
}

// ExitCauser is implemented by backend sessions whose end can have a cause
// a caller should be able to match with errors.Is (a lost ssh connection
// matches ssh.ErrConnectionLost). Once the session has exited, the
// SESSION_EXITED errors of later calls wrap the cause ExitCause returns
// (nil for an ordinary exit).
type ExitCauser interface {
	ExitCause() error
}
