package core

import (
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// SpawnRequest asks the service to start a session.
type SpawnRequest struct {
	// Type selects the backend ("shell" when empty).
	Type string
	// Name is optional owner-local display metadata, unique among the
	// owner's running sessions and reserved while the spawn is in flight; a
	// session whose program has exited frees its name (it keeps it in
	// listings until closed). It authorizes nothing.
	Name string
	// Command is the argv (see the backend's documentation for its meaning
	// on shell-type backends).
	Command []string
	// Dir is the working directory.
	Dir string
	// Env holds extra NAME=VALUE variables; names must match
	// [A-Za-z_][A-Za-z0-9_]*.
	Env []string
	// Size is the initial terminal size (DefaultSize when zero).
	Size Size
	// Scrollback overrides the service's scrollback bounds for this session
	// (zero fields keep the service's values).
	Scrollback ScrollbackLimits
	// Options carries backend-specific settings.
	Options any
	// NoInitialWait skips waiting for the initial output: Spawn returns as
	// soon as the backend started the program.
	NoInitialWait bool
	// WithTap returns, in SpawnResult.Tap, a tap created before any output
	// was read, so that it sees every byte the program prints (a job's
	// data events, a protocol client). The caller owns it.
	WithTap bool
	// Relay declares that the top-level program forwards its terminal to
	// another one (an ssh client, a container exec): while it holds the
	// terminal, its reads say nothing about what the far end waits for, so
	// sends settle on the prompt marker, silence, exit or the deadline,
	// never on [WaitStdinRead]. Relays that wait on a TCP socket are
	// recognised without it.
	Relay bool
}

// SessionInfo describes a published session.
type SessionInfo struct {
	ID      SessionID
	Name    string
	Type    string
	PID     int
	Status  Status
	Created time.Time
	// Size is the terminal size (as spawned, then as last resized).
	Size Size
	// TotalLines counts the scrollback lines so far (including dropped
	// ones and an unterminated last line).
	TotalLines int64
	// Prompts counts the shell prompt markers (OSC 133;B) seen so far: a
	// session whose shell marks its prompts has Prompts > 0.
	Prompts uint64
}

// SpawnResult is what Spawn returns.
type SpawnResult struct {
	SessionInfo
	// InitialOutput is the bounded cleaned output the program printed
	// before Spawn returned (banner, message of the day, first prompt).
	InitialOutput string
	// Truncated reports that InitialOutput was cut to the result bound.
	Truncated bool
	// Tap sees all of the session's output, when the request asked
	// WithTap; nil otherwise.
	Tap *Tap
}

// SendRequest is one write to a session.
type SendRequest struct {
	// Data is written byte-exact (NUL and invalid UTF-8 included).
	Data []byte
	// Submit appends the backend's Enter key after Data.
	Submit bool
	// Timeout overrides the service's absolute send deadline.
	Timeout time.Duration
	// QuietWindow overrides the service's silence window.
	QuietWindow time.Duration
}

// SendResult is how a send settled.
type SendResult struct {
	// Output is the cleaned output produced since the write, bounded by the
	// service's result bound (the newest part is kept).
	Output string
	// Truncated reports that older parts of Output were dropped.
	Truncated bool
	// SkippedLines counts whole lines dropped from Output.
	SkippedLines int64
	// WaitReason explains why the send returned.
	WaitReason WaitReason
	// Status is the session's status at settlement.
	Status Status
	// CommandExitCode is the exit code the shell reported for the command
	// (from its OSC 133;D marker) when the send settled on a prompt, else
	// nil.
	CommandExitCode *int
	// Elapsed is the time from the write to settlement.
	Elapsed time.Duration
}

// OutputDelta is output read from an advancing cursor (see
// scrollback.Delta).
type OutputDelta = scrollback.Delta

// PageRequest selects a page of retained scrollback by absolute line
// numbers; line 0 is the first line the session ever printed. Count 0 takes
// the service default; a negative Count, one above MaxPageLinesLimit or a
// negative Start is INVALID_ARGUMENT.
type PageRequest = scrollback.PageRequest

// PageResult is one bounded page of scrollback (see scrollback.Page).
type PageResult = scrollback.Page
