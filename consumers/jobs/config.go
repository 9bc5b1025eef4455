package jobs

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// BackendChoice selects how jobs run.
type BackendChoice string

// Backend choices.
const (
	// BackendAuto runs jobs on a PTY when the service has the PTY backend
	// registered, and on pipes otherwise.
	BackendAuto BackendChoice = "auto"
	// BackendPTY runs jobs on a pseudo-terminal: interactive programs
	// behave as on a real terminal, and "\x03" is Ctrl-C.
	BackendPTY BackendChoice = "pty"
	// BackendPipe runs jobs on plain pipes: no terminal semantics, stdout
	// and stderr merged, no native dependency.
	BackendPipe BackendChoice = "pipe"
)

// Limits and defaults of the configuration, from the seed.
const (
	DefaultBufferCapacity = 5000
	MinBufferCapacity     = 100
	MaxBufferCapacity     = 200_000

	DefaultStopGrace = 1500 * time.Millisecond
	MinStopGrace     = 50 * time.Millisecond
	MaxStopGrace     = 60 * time.Second

	DefaultBufferBytes = 16 << 20
	MinBufferBytes     = 64 << 10
	MaxBufferBytes     = 1 << 30

	// MaxLineBytes is where a long line is cut; its tail is kept and the
	// cut part counted as dropped. The seed says 65,536 characters; the
	// scrollback counts bytes, which is the same for ASCII.
	MaxLineBytes = 65_536

	// DefaultGroupName is the group of a job launched without one, unless
	// Config.DefaultGroup says otherwise.
	DefaultGroupName = "default"

	// DefaultPTYType is the core backend type of BackendPTY.
	DefaultPTYType = "exec"

	// ForcedStopWait is how long a stop waits for a job to end after it
	// was killed before it gives up on the program and closes the session.
	ForcedStopWait = 2 * time.Second
)

// Config configures a [Manager]. The zero value is valid: a zero field takes
// the default its comment names. A value out of its range is an error from
// [New], never clamped.
type Config struct {
	// BufferCapacity is the number of output lines kept per job, 100 to
	// 200,000. Default 5,000.
	BufferCapacity int
	// BufferBytes bounds the text kept per job as well, 64 KiB to 1 GiB.
	// Default 16 MiB.
	BufferBytes int
	// DefaultGroup is the group of jobs launched without one. Default
	// "default".
	DefaultGroup string
	// Backend selects how jobs run: "pty", "pipe" or "auto" (prefer pty).
	// Default auto.
	Backend BackendChoice
	// PTYType is the core backend type used for BackendPTY. Default "exec"
	// (core/localpty's direct-exec PTY backend).
	PTYType string
	// StopGrace is how long a stop waits after SIGTERM before it kills the
	// job, 50 ms to 60 s. Default 1.5 s.
	StopGrace time.Duration
	// DisablePortScan turns off the pre-launch check of requested ports.
	DisablePortScan bool
	// DisablePipe runs every job on the PTY backend: a launch that asks
	// for pipes is refused (UNSUPPORTED), "auto" means "pty", and Backend
	// "pipe" is an error. For a deployer whose PTY backend confines its
	// programs (a sandbox) where the pipe backend would not.
	DisablePipe bool
	// MaxJobsPerOwner bounds the jobs one owner holds, running or ended
	// but not dropped, 1 to 10,000. Default 8. Jobs have their own limit:
	// the owner's terminal sessions do not count toward it, nor jobs
	// toward the service's session limit of the owner.
	MaxJobsPerOwner int
	// Notify receives the exit notice of every job launched with
	// NotifyOnExit. It runs on its own goroutine, never blocks a job, and
	// a panic in it is recovered and logged.
	Notify func(Notification)
	// Logger receives structured logs (job ids, states, reasons; never
	// program output). Default slog.Default().
	Logger *slog.Logger
}

// ErrInvalidConfig is matched (errors.Is) by every *ConfigError.
var ErrInvalidConfig = errors.New("jobs: invalid configuration")

// ConfigError reports a configuration value out of range.
type ConfigError struct {
	Field  string // the Config field
	Value  any    // the value given
	Reason string // what is allowed
}

// Error implements error. A string value is quoted and cut to 64 bytes
// (core.QuoteForMsg): it may be a caller's long or control-laden name.
func (e *ConfigError) Error() string {
	v := e.Value
	if s, ok := v.(string); ok {
		v = core.QuoteForMsg(s)
	}
	return fmt.Sprintf("jobs: invalid configuration: %s = %v: %s", e.Field, v, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidConfig) and errors.Is(err,
// core.ErrInvalidArgument) true, so callers that only know the service's
// codes recognise it too.
func (e *ConfigError) Is(target error) bool {
	return target == ErrInvalidConfig || target == core.ErrInvalidArgument
}

// Validate checks every field and returns the configuration with defaults
// filled in, or the first *ConfigError.
func (c Config) Validate() (Config, error) {
	switch {
	case c.BufferCapacity == 0:
		c.BufferCapacity = DefaultBufferCapacity
	case c.BufferCapacity < MinBufferCapacity || c.BufferCapacity > MaxBufferCapacity:
		return c, &ConfigError{"BufferCapacity", c.BufferCapacity, fmt.Sprintf("must be %d to %d lines", MinBufferCapacity, MaxBufferCapacity)}
	}
	switch {
	case c.BufferBytes == 0:
		c.BufferBytes = DefaultBufferBytes
	case c.BufferBytes < MinBufferBytes || c.BufferBytes > MaxBufferBytes:
		return c, &ConfigError{"BufferBytes", c.BufferBytes, fmt.Sprintf("must be %d to %d bytes", MinBufferBytes, MaxBufferBytes)}
	}
	switch {
	case c.StopGrace == 0:
		c.StopGrace = DefaultStopGrace
	case c.StopGrace < MinStopGrace || c.StopGrace > MaxStopGrace:
		return c, &ConfigError{"StopGrace", c.StopGrace, fmt.Sprintf("must be %v to %v", MinStopGrace, MaxStopGrace)}
	}
	switch c.Backend {
	case "":
		c.Backend = BackendAuto
	case BackendAuto, BackendPTY, BackendPipe:
	default:
		return c, &ConfigError{"Backend", c.Backend, `must be "pty", "pipe" or "auto"`}
	}
	if c.DisablePipe && c.Backend == BackendPipe {
		return c, &ConfigError{"Backend", c.Backend, `must be "pty" or "auto" when pipes are disabled (DisablePipe)`}
	}
	if c.DefaultGroup == "" {
		c.DefaultGroup = DefaultGroupName
	} else if err := checkName("DefaultGroup", c.DefaultGroup); err != nil {
		return c, err
	}
	if c.PTYType == "" {
		c.PTYType = DefaultPTYType
	}
	switch {
	case c.MaxJobsPerOwner == 0:
		c.MaxJobsPerOwner = DefaultMaxJobsPerOwner
	case c.MaxJobsPerOwner < 1 || c.MaxJobsPerOwner > MaxMaxJobsPerOwner:
		return c, &ConfigError{"MaxJobsPerOwner", c.MaxJobsPerOwner, fmt.Sprintf("must be 1 to %d", MaxMaxJobsPerOwner)}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c, nil
}

// MaxNameLen bounds group names and titles.
const MaxNameLen = 200

// defaultTitle is a job's title when the caller gave none: its command,
// with control characters replaced by "?" and cut to MaxNameLen on a
// character boundary, so that any command that can run has a title (a
// long path was refused as an invalid title the caller never set).
func defaultTitle(command string) string {
	t := strings.Map(func(r rune) rune {
		if isControl(r) {
			return '?'
		}
		return r
	}, command)
	if len(t) > MaxNameLen {
		t = strings.ToValidUTF8(t[:MaxNameLen], "") // drops a character cut in two
	}
	return t
}

// isControl reports a character a name or title may not hold (C0 and DEL).
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func checkName(field, s string) error {
	if len(s) > MaxNameLen {
		return &ConfigError{field, s, fmt.Sprintf("must be at most %d bytes", MaxNameLen)}
	}
	for _, r := range s {
		if isControl(r) {
			return &ConfigError{field, s, "must not contain control characters"}
		}
	}
	return nil
}
