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
// service once published: the terminal contract every backend keeps. Its
// methods may be called concurrently, except that Read is only ever
// called from one goroutine. What else a session can tell or do it offers
// through at most two optional interfaces, [Prober] and [TryIO].
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

// InputWait is a backend's answer to the service's question
// ([Prober].InputWait).
type InputWait struct {
	Now     InputBaseline // where things stand: a baseline for a later question
	Reading bool          // every live process of the foreground sleeps, one blocked reading the terminal
	// Waiting is Reading with nothing in flight: no typed input left, no
	// output in the terminal or the backend, and all output Read returned
	// taken in. A settled wait needs it, so output printed just before a
	// program blocked is never cut off.
	Waiting bool
	New     bool // Now.Differs(base): the wait began after the baseline
	// Relay: a task blocked on the terminal also waits on a TCP socket,
	// on a UNIX stream connection to a process outside the foreground
	// group, or on a PTY master, so it forwards the terminal to a peer (an
	// ssh client, nc on a local server's socket) or to a terminal of its
	// own (script), and its wait says nothing about the far end. The
	// service does not settle on it.
	Relay bool
	// EventLoop: a task reading the terminal waits in an event loop
	// (epoll) that watches it among other things, as Node's REPL does
	// while it awaits a promise: its read says it takes input, not that
	// it has finished. The service settles on such a read only when the
	// output does not say the program is still at work (settle.go).
	EventLoop bool
	// SideThread: a task reading the terminal is not the first thread of
	// its process, as in a program on a JVM (JLine's reader thread in
	// jshell) or Python's asyncio console: such a thread may read the
	// terminal all along while another thread works on what it read, so
	// its read, too, says it takes input, not that it has finished
	// (settle.go).
	SideThread bool
	// Hidden: the terminal reads a hidden line (echo off in canonical
	// mode, as getpass, sudo and read -s set it: a password). Backends
	// that cannot tell leave it false.
	Hidden bool
	// Dialog: a password dialog reads the terminal's keys
	// ([TerminalReader.PasswordDialog]: pinentry). The service takes it
	// for a secret prompt while the dialog shows the cursor (an entry
	// field), not while it asks a question with buttons.
	Dialog bool
}
