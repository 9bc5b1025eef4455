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

// ForegroundProber is implemented by backends that can observe the
// terminal's foreground process group (the local PTY backend, through
// /proc on Linux). The service uses it to settle sends with
// [WaitStdinRead] and to tell a shell at its prompt from a running command.
type ForegroundProber interface {
	ProbeForeground() (ForegroundState, error)
}

// ForegroundGrouper is implemented by backends that can answer two
// questions about the foreground cheaply, without the full probe: which
// group holds the terminal (one ioctl), and how often the top-level
// process's main thread has blocked (one /proc read). The service uses them
// to confirm a prompt and, for a shell at its prompt, as the baseline of a
// send.
type ForegroundGrouper interface {
	ForegroundGroup() (pgid int, leader bool, err error)
	// LeaderSwitches returns the voluntary context switches of the
	// top-level process's main thread: the same count ProbeForeground
	// reports as Switches when that thread alone waits on the terminal.
	LeaderSwitches() (uint64, error)
}

// ForegroundState is a snapshot of the terminal's foreground process group.
type ForegroundState struct {
	// PGID is the foreground process group id (TIOCGPGRP).
	PGID int
	// Leader reports that PGID is the top-level process's own group (a
	// shell at its prompt).
	Leader bool
	// ReadingInput reports that every live process of the group is
	// sleeping and at least one is blocked reading the terminal (read, or
	// select/poll on it).
	ReadingInput bool
	// Switches sums the voluntary context switches of the group's tasks
	// that are blocked on the terminal: it changes when such a task woke
	// (for input) and blocked again, so a caller can tell a wait that is
	// new since a write from an old one. Other threads (a runtime's
	// housekeeping threads wake all the time) do not count.
	Switches uint64
	// PendingOutput counts bytes the program wrote to the terminal that
	// have not been read from it yet (-1 when unknown); a backend whose
	// reader is between a read and its count (OutputRead) counts at least
	// one. A settled wait needs it to be zero, so output printed just
	// before a program blocked is never cut off.
	PendingOutput int
	// PendingInput counts bytes written to the terminal that the program
	// could read but has not read yet (-1 when unknown). A program that
	// still has input waiting is not waiting for input.
	PendingInput int
	// Relay reports that a task blocked on the terminal also waits on a
	// TCP socket: it forwards the terminal to a peer (an ssh or telnet
	// client), so its wait says nothing about whether the program at the
	// far end waits for input. The service does not settle on such a
	// read.
	Relay bool
	// OutputRead counts the bytes the backend session's Read has returned
	// so far, measured after PendingOutput (0 when the backend does not
	// count). Output that left the terminal buffer may not have reached
	// the service yet (its reader is a goroutine like any other); a
	// settled wait needs the service to have taken in at least this much.
	OutputRead uint64
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
