package ptysession

import (
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Defaults of [Options].
const (
	DefaultBackend          = "shell"
	DefaultTailLines        = 200
	MaxLines                = 10_000
	DefaultOpenTimeout      = 10 * time.Second
	DefaultProgressInterval = 250 * time.Millisecond
	DefaultMaxTimeout       = 10 * time.Minute
)

// CommandMode says how [Sessions.Open] passes OpenRequest.Command to the
// backend.
type CommandMode int

// Command modes.
const (
	// CommandAuto types the command into the shell for every backend
	// except "exec", which gets argv.
	CommandAuto CommandMode = iota
	// CommandTyped starts the backend's shell and types the command into
	// it (shell-type backends: "shell", a remote shell).
	CommandTyped
	// CommandArgv splits the command into argv (see [SplitCommand]) and
	// passes it to the backend, which runs it directly.
	CommandArgv
)

// Options configure a [Sessions]. The zero value is usable.
type Options struct {
	// Backend is the backend type sessions are spawned on (default
	// "shell").
	Backend string
	// Recording says that the service records sessions asked for with
	// OpenRequest.Record (a recorder is plugged into its OnSpawn); without
	// it such a request is INVALID_ARGUMENT.
	Recording bool
	// CommandMode says how Open passes the command (default CommandAuto).
	CommandMode CommandMode
	// TailLines is the default line budget of Tail and Read (default 200).
	TailLines int
	// MaxResultBytes bounds the text of every result: an open's initial
	// output, a send's delta, a tail, a page (default
	// core.DefaultMaxOutputBytes, 32 KiB). The newest output is kept (for a
	// page: the first lines).
	MaxResultBytes int
	// Cut says what an open's initial output, a send's delta and a tail
	// keep when they exceed MaxResultBytes or the tail's line budget:
	// CutNewest (the default) keeps the newest output, CutKeepErrors the
	// head, the tail and the error-looking lines between, with the ranges
	// left out in the result's Cut field (see [core.CutLines]).
	Cut CutPolicy
	// MaxSendBytes bounds the data of one send (default
	// core.DefaultMaxSendBytes, 1 MiB).
	MaxSendBytes int
	// ShellQuoteEnv sends OpenRequest.Env as typed `export` statements
	// (see [QuoteEnv]) instead of passing it to the backend, for shell-type
	// backends that only take text (a remote shell). It has no effect in
	// argv mode.
	ShellQuoteEnv bool
	// ShellNames are commands that name the shell itself: on a shell-type
	// backend, opening one of them (alone, or as a path ending in one)
	// types nothing and keeps the shell the backend started. Default
	// "bash" and "sh".
	ShellNames []string
	// OpenTimeout bounds how long Open waits for a typed command to settle
	// (default 10s); a command still busy then keeps running.
	OpenTimeout time.Duration
	// ProgressInterval is how often a send reports output to its Progress
	// callback (default 250ms).
	ProgressInterval time.Duration
	// Service configures the service [NewLocal] makes (session limit per
	// owner, scrollback bounds, logger); [New] ignores it.
	Service core.Options
	// Targets are the remote shells OpenRequest.Target may name, by name
	// (see [Target]); deployer configuration, never the model's.
	Targets map[string]Target
	// MaxTimeout is the longest deadline and quiet window a caller may ask
	// for in a SendRequest or OpenRequest (default 10 minutes): a deployer's
	// bound on how long one call may hold a client.
	MaxTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Backend == "" {
		o.Backend = DefaultBackend
	}
	if o.TailLines <= 0 {
		o.TailLines = DefaultTailLines
	}
	if o.TailLines > MaxLines {
		o.TailLines = MaxLines
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = core.DefaultMaxOutputBytes
	}
	if o.MaxSendBytes <= 0 {
		o.MaxSendBytes = core.DefaultMaxSendBytes
	}
	if o.ShellNames == nil {
		o.ShellNames = []string{"bash", "sh"}
	}
	if o.OpenTimeout <= 0 {
		o.OpenTimeout = DefaultOpenTimeout
	}
	if o.MaxTimeout <= 0 {
		o.MaxTimeout = DefaultMaxTimeout
	}
	if o.ProgressInterval <= 0 {
		o.ProgressInterval = DefaultProgressInterval
	}
	return o
}

// argvMode reports whether commands become argv.
func (o Options) argvMode() bool {
	switch o.CommandMode {
	case CommandArgv:
		return true
	case CommandTyped:
		return false
	}
	return o.Backend == "exec"
}
