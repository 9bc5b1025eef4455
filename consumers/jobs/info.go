package jobs

import "time"

// Info describes a job. It is a snapshot: later changes do not reach it.
type Info struct {
	// ID is the job id (its core session id), minted by the service.
	ID string
	// PID is the program's process id.
	PID int
	// Title is the caller's display name (the command when none was
	// given).
	Title string
	// Group is the job's group.
	Group string
	// Command and Args are what was run; Cwd where ("" is the service
	// process's directory).
	Command string
	Args    []string
	Cwd     string
	// Backend is how the job runs: "pty" or "pipe".
	Backend BackendChoice
	// State is where the job is; ExitCode (nil until the program exited,
	// and when a signal killed it) and Signal ("SIGTERM") say how it
	// ended.
	State    State
	ExitCode *int
	Signal   string
	// StopReason says why a stopped job stopped; StopCause what asked for
	// the stop (user, timeout or shutdown; equal to StopReason unless the
	// job had to be forced).
	StopReason StopReason
	StopCause  StopReason
	// StartedAt and EndedAt (zero while the job runs) time the job.
	StartedAt time.Time
	EndedAt   time.Time
	// Timeout is the job's timeout (0: none); NotifyOnExit whether an exit
	// notice will be sent; Ports the ports checked before launch.
	Timeout      time.Duration
	NotifyOnExit bool
	Ports        []int
	// Warnings are launch-time warnings (a requested port already in use).
	Warnings []string
	// Services are the service addresses found in the output so far.
	Services []string
	// Output summarises the job's output buffer.
	Output OutputStats
}

// OutputStats summarise a job's output.
type OutputStats struct {
	// Lines counts every line so far, including dropped ones and an
	// unterminated last line; it is the next read position when reading
	// everything.
	Lines int64
	// First is the oldest line still retained; lines before it were
	// dropped.
	First int64
	// Retained counts the lines still readable.
	Retained int64
	// Bytes counts raw output bytes received (before ANSI stripping).
	Bytes int64
	// CutBytes counts bytes cut from the front of over-long lines (lines
	// keep their last MaxLineBytes bytes), the unterminated last line
	// included. It is counted on the raw output, so escape sequences in a
	// long line count too.
	CutBytes int64
	// Released reports that the job's output is no longer readable: its
	// session had to be closed to end it (see ForcedStopWait).
	Released bool
}
