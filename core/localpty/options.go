package localpty

import (
	"log/slog"
	"time"
)

// Default option values.
const (
	// DefaultTerm is the TERM given to programs.
	DefaultTerm = "xterm-256color"
	// DefaultCloseGrace is how long Close waits after SIGHUP/SIGTERM
	// before it kills what is left with SIGKILL.
	DefaultCloseGrace = 500 * time.Millisecond
	// DefaultDrainWindow is the silence after the top-level process exited
	// (while another process still holds the terminal) after which Read
	// reports io.EOF.
	DefaultDrainWindow = 50 * time.Millisecond
)

// MarkerEnv is the environment variable every process of a session
// inherits, set to the request's marker (BackendRequest.Marker).
const MarkerEnv = "PTYSEAM_SESSION"

// Options are the settings both backend types share. The zero value is
// usable: every zero field takes the default named in its comment.
type Options struct {
	// Term is the TERM variable of the program. Default DefaultTerm.
	Term string
	// CloseGrace is how long Close waits for the session's processes to
	// exit after SIGHUP, SIGTERM and SIGCONT before it kills the rest.
	// Default DefaultCloseGrace.
	CloseGrace time.Duration
	// DrainWindow is how long Read keeps reading after the top-level
	// process exited while another process still holds the terminal open:
	// once output has been silent this long, Read returns io.EOF. Default
	// DefaultDrainWindow.
	DrainWindow time.Duration
	// Logger receives structured logs (pids, cgroup paths, teardown steps;
	// never terminal bytes). Default slog.Default().
	Logger *slog.Logger
	// DisableCgroup makes sessions skip the cgroup v2 leaf on Linux, so
	// that Close finds the session's processes by scanning /proc instead.
	DisableCgroup bool
	// Sandbox, when set, confines every session of the backend (see
	// [Sandbox]); a session whose confinement the kernel cannot enforce
	// is refused with UNSUPPORTED. Linux only.
	Sandbox *Sandbox
}

// ShellOptions configure the "shell" backend type.
type ShellOptions struct {
	Options
	// Shell is the shell argv. Default DefaultShell. A request's non-empty
	// Command replaces it.
	Shell []string
}

// ExecOptions configure the "exec" backend type.
type ExecOptions struct {
	Options
}

func (o Options) withDefaults() Options {
	if o.Term == "" {
		o.Term = DefaultTerm
	}
	if o.CloseGrace <= 0 {
		o.CloseGrace = DefaultCloseGrace
	}
	if o.DrainWindow <= 0 {
		o.DrainWindow = DefaultDrainWindow
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}
