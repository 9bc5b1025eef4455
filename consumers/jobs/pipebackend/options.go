package pipebackend

import (
	"log/slog"
	"time"
)

// Type is the backend type string of the pipe backend.
const Type = "pipe"

// MarkerEnv is the environment variable every process of a session
// inherits, set to the request's marker (core.BackendRequest.Marker). It has
// the same name as the local PTY backend's.
const MarkerEnv = "PTYSEAM_SESSION"

// Default option values.
const (
	// DefaultCloseGrace is how long Close waits after SIGTERM before it
	// kills the rest with SIGKILL.
	DefaultCloseGrace = 500 * time.Millisecond
	// DefaultDrainWindow is how long Read keeps reading after the program
	// exited while another process still holds the output pipe: once the
	// pipe has been silent this long, Read returns io.EOF.
	DefaultDrainWindow = 50 * time.Millisecond
)

// pollInterval is how often Close looks for survivors.
const pollInterval = 10 * time.Millisecond

// Options configure a [Backend]. The zero value is usable: every zero field
// takes the default named in its comment.
type Options struct {
	// CloseGrace is how long Close waits for the session's processes to
	// exit after SIGTERM before it kills the rest. Default
	// DefaultCloseGrace.
	CloseGrace time.Duration
	// DrainWindow is how long Read keeps reading after the program exited
	// (see DefaultDrainWindow). Default DefaultDrainWindow.
	DrainWindow time.Duration
	// DisableCgroup makes sessions skip the cgroup v2 leaf on Linux (see
	// localpty.StartInLeaf). With the leaf, the processes a session left
	// behind when this process died (SIGKILL, a crash) are killed by the
	// next localpty.ReapStaleCgroups in the same cgroup.
	DisableCgroup bool
	// Logger receives structured logs (pids, teardown steps; never program
	// output). Default slog.Default().
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
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
