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
	// Title is display metadata for observers listing every session (the
	// watch page): the command line a caller types into the shell it
	// spawns, which Command does not show. It authorizes nothing.
	Title string
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
	// Record asks the service's observers to record the session (a
	// recorder in Options.OnSpawn that records only the sessions asked
	// for).
	Record bool
	// Relay declares that the top-level program forwards its terminal to
	// another one (an ssh client, a container exec): while it holds the
	// terminal, its reads say nothing about what the far end waits for, so
	// sends settle on the prompt marker, silence, exit or the deadline,
	// never on [WaitStdinRead]. Relays that wait on a TCP socket are
	// recognised without it.
	Relay bool
}

// SessionInfo describes a session. The ptysession facade and the tools
// hand it out as is (pty_list); the JSON names are the tools' wire names.
type SessionInfo struct {
	// ID is the service-minted session id.
	ID SessionID `json:"sessionId"`
	// Name is the display name given at spawn, if any.
	Name string `json:"name,omitempty"`
	// Type is the backend type.
	Type string `json:"type"`
	// Command is the spawn request's command (shared: do not modify), for
	// observers listing every session; not on the wire.
	Command []string `json:"-"`
	// Title repeats the spawn request's Title; not on the wire.
	Title string `json:"-"`
	// Record repeats the spawn request's Record; not on the wire.
	Record bool `json:"-"`
	// PID is the top-level process id (0, and omitted, where the backend
	// cannot name one).
	PID int `json:"pid,omitempty"`
	// Status is the session's status.
	Status Status `json:"status"`
	// Created is when the session was spawned.
	Created time.Time `json:"created"`
	// Size is the terminal size (as spawned, then as last resized).
	Size Size `json:"-"`
	// TotalLines counts the scrollback lines so far (including dropped
	// ones and an unterminated last line).
	TotalLines int64 `json:"totalLines"`
	// TailLine is the line number of the first output the owner has not
	// been given (its tail position: a line given in part counts); not
	// on the wire.
	TailLine int64 `json:"-"`
	// Prompts counts the shell prompt markers (OSC 133;B) seen so far: a
	// session whose shell marks its prompts has Prompts > 0.
	Prompts uint64 `json:"-"`
	// QueuedSends counts the sends waiting their turn behind the live one
	// ([SendRequest.Queue]).
	QueuedSends int `json:"-"`
}

// SpawnResult is what Spawn returns.
type SpawnResult struct {
	SessionInfo
	SpawnOutput
	// Cursor is the read position just past InitialOutput: a caller that
	// keeps a tail position (the ptysession facade) continues from it
	// rather than reading the initial output again.
	Cursor Cursor
	// Tap sees all of the session's output, when the request asked
	// WithTap; nil otherwise.
	Tap *Tap
}

// SpawnOutput is what a new session printed before the call that started
// it returned: the banner, the message of the day, the first prompt
// (through the ptysession facade, also what a typed command printed until
// it settled). The JSON names are the tools' wire names (pty_open, whose
// result embeds it).
type SpawnOutput struct {
	// InitialOutput is the cleaned output, bounded by the result bound
	// (the newest part is kept).
	InitialOutput string `json:"initialOutput"`
	// Truncated reports that older parts of InitialOutput were dropped
	// (omitted from the JSON when false).
	Truncated bool `json:"truncated,omitempty"`
}

// SendRequest is one write to a session: the service's, the ptysession
// facade's (which adds its own options around it) and the tools'.
type SendRequest struct {
	// Data is written byte-exact (NUL, control characters such as "\x03"
	// for Ctrl-C, and invalid UTF-8 included), with these exceptions: a
	// block of several lines with an indented line after the first goes
	// as a terminal pastes it (between ESC [200~ and ESC [201~; the line
	// breaks that end a block stay typed) when the program reads pastes
	// in an editor that redraws its input (scrollback.PasteMode) and no
	// shell waits at its prompt, so that a line editor that indents by
	// itself (IPython, Python's REPL from 3.13) does not indent it twice.
	// Data of several lines sent to a full-screen program that asked for
	// bracketed paste (vim, nano: the alternate screen; not a terminal
	// multiplexer) goes as one paste, so that an editor's autoindent does
	// not indent each line again. With NoSubmit, Data is written as it is.
	// Data holding an escape is never wrapped. Code typed to Python's
	// console (at ">>> " or "... ") loses the blank lines inside a
	// compound statement and gains one where a block ends, and a tab
	// typed to a marked shell's line editor goes after a Ctrl-V, so that
	// it stands for itself instead of completing a name (docs/core.md).
	// A Windows line end ("\r\n") is typed as one Enter.
	Data string
	// NoSubmit leaves out the backend's Enter key, which otherwise follows
	// Data so that interactive programs receive a line: set it for
	// byte-exact writes (keys, a partial line).
	NoSubmit bool
	// Timeout overrides the service's absolute send deadline (0: its
	// default).
	Timeout time.Duration
	// QuietWindow overrides the service's silence window (0: its default);
	// one as long as Timeout means silence never settles the send. With
	// Timeout set (and Enter sent), 0 on a shell that marks its prompts
	// means the caller said how long the command may take: silence
	// settles the send only once a drawn screen pauses, or, where the
	// backend sees no reads (plain ssh), after a question (output ending
	// in an open line); where it sees them, a read ends the wait instead
	// (unless KeepQuietWindow).
	QuietWindow time.Duration
	// KeepQuietWindow keeps the service's silence window when Timeout is
	// set and QuietWindow is 0: the deadline is a bound of the caller's
	// own (an open waiting for the command it typed), not its word on how
	// long the command takes.
	KeepQuietWindow bool
	// Tail, if set, makes the result's Delta the output the owner had not
	// been given yet when the send settled (as [Service.Tail] returns it,
	// with these bounds: what was printed before the write too) and moves
	// the owner's tail position past it, in one step with the settling, so
	// that no other send's output mixes in. Without it, Delta is the
	// output since the write and the tail position stays.
	Tail *TailRequest
	// Queue waits behind the live send (first come, first served) instead
	// of failing with SEND_ACTIVE; at most Options.MaxQueuedSends wait per
	// session (SEND_ACTIVE beyond). Nothing is written while it waits, and
	// a ctx that ends meanwhile makes it CANCELLED.
	Queue bool
}

// SendResult is how a send settled. The JSON names are the tools' wire
// names (pty_send).
type SendResult struct {
	// Delta is the cleaned output the caller had not been given yet,
	// bounded by the result bound (the newest part is kept): from the
	// service, what the write produced; from the ptysession facade,
	// everything past the owner's tail position.
	Delta string `json:"delta"`
	// Status is the session's status at settlement. A settled send does
	// not mean the program exited.
	Status Status `json:"status"`
	// WaitReason explains why the send returned.
	WaitReason WaitReason `json:"waitReason"`
	// Truncated reports that older parts of Delta were dropped (omitted
	// from the JSON when false).
	Truncated bool `json:"truncated,omitempty"`
	// Skipped counts whole lines dropped from Delta.
	Skipped int64 `json:"skipped,omitempty"`
	// Cut lists the line ranges left out of Delta when a send with
	// [SendRequest.Tail] asked KeepErrors: Delta then holds a marker line
	// in place of each; page them by line number. Lines the session no
	// longer retained count in Skipped only.
	Cut []LineRange `json:"cut,omitempty"`
	// ExitCode is the exit code the shell reported for the command (from
	// its OSC 133;D marker) when the send settled on a prompt, else nil.
	ExitCode *int `json:"exitCode,omitempty"`
	// Elapsed is the time from the write to settlement.
	Elapsed time.Duration `json:"-"`
	// HandBack, on the first send after a person handed the session
	// back, says who was in control and what was printed meanwhile; nil
	// otherwise.
	HandBack *HandBackNote `json:"handBack,omitempty"`
	// Foreground, when the send settled as inferred_idle, timeout or
	// remote_prompt, names the program other than the top-level process
	// (a shell) that holds the terminal: still busy, waiting elsewhere, or
	// the client of a remote shell; nil otherwise or when the backend
	// cannot tell.
	Foreground *ForegroundProgram `json:"foreground,omitempty"`
	// Continuation reports that the program waits for the rest of an
	// incomplete command: a marked shell printed its continuation prompt
	// after the send and no prompt since (its PS2, OSC 133;P: an open
	// quote, bracket or here-document), or the send settled on the
	// program's read (or a remote login's prompt) with a continuation
	// prompt alone on the last line ([ContinuationPrompt]: Python's "... ",
	// an indented block, which an empty line ends; sqlite3's "...>", a
	// statement without its ";"). A
	// send typed now becomes part of that command.
	Continuation bool `json:"continuation,omitempty"`
	// AltScreen reports that a program held the alternate screen when the
	// send settled (vi, less): what it shows there is no line of Delta,
	// so an empty Delta says nothing of whether it answered. Not on the
	// wire.
	AltScreen bool `json:"-"`
	// InputHidden reports that the send settled on a read of a hidden
	// line (stdin_read with echo off in canonical mode: a password or
	// passphrase prompt), or of a password dialog's entry field
	// (pinentry's, see [TerminalReader.PasswordDialog]), so what is typed
	// next is not shown. It is false when the backend cannot tell.
	InputHidden bool `json:"inputHidden,omitempty"`
	// CommandLine, for a send that settled with a marked shell reading
	// at its prompt, is the text that keys (NoSubmit sends) typed on its
	// command line and nobody submitted: a send typed now goes after it
	// (Ctrl-U clears it). It is empty when the line is empty, or when
	// keys edited it in ways not followed (cursor keys, completion). For
	// another program reading a line (a console's prompt, a question),
	// it is the plain text this send typed when the line the program
	// shows ends in it.
	CommandLine string `json:"commandLine,omitempty"`
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

// PageSpan says where a page lies in the scrollback (see
// scrollback.PageSpan).
type PageSpan = scrollback.PageSpan
