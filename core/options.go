package core

import (
	"log/slog"
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// Options configure a [Service]. The zero value is usable: every zero field
// takes the default named in its comment.
type Options struct {
	// Logger receives structured logs (ids, owners, close reasons; never
	// terminal bytes). Default: slog.Default().
	Logger *slog.Logger
	// Scrollback bounds each session's retained output unless a spawn
	// request overrides them. Default: DefaultScrollback.
	Scrollback ScrollbackLimits
	// SendTimeout is a send's absolute deadline unless the request sets
	// one. Default 30s.
	SendTimeout time.Duration
	// QuietWindow is the output silence after which a send settles as
	// inferred_idle unless the request sets one. Default 3s.
	QuietWindow time.Duration
	// SpawnSettle bounds how long Spawn waits for the initial output (the
	// first prompt). Default 2s; the wait ends early on a prompt marker, a
	// foreground read or SpawnQuiet of silence.
	SpawnSettle time.Duration
	// SpawnQuiet is the silence that ends the initial-output wait when no
	// stronger signal fired. Default 300ms.
	SpawnQuiet time.Duration
	// MaxSendBytes bounds the data of one send. Default 1 MiB.
	MaxSendBytes int
	// MaxQueuedSends bounds the sends that wait their turn behind a live
	// one on a session ([SendRequest.Queue]); one more is SEND_ACTIVE.
	// Default DefaultMaxQueuedSends.
	MaxQueuedSends int
	// MaxResultBytes bounds the text of a send result, an output delta and
	// a page. Default DefaultMaxResultBytes (see bounds.go).
	MaxResultBytes int
	// MaxPageLines bounds the lines of one page. Default 500 for a page
	// that names no count; a request above 10,000 is invalid.
	MaxPageLines int
	// MaxSessionsPerOwner limits live sessions per owner (0: no limit).
	MaxSessionsPerOwner int
	// MaxSessions limits live sessions of every owner together (0: no
	// limit), so that many owners (one per client connection) cannot take
	// more than the host can hold. A spawn beyond it is TOO_MANY_SESSIONS.
	MaxSessions int
	// OnSpawn, when set, is called for every new session before any of its
	// output is read, with a tap that sees all of it; the callee owns the
	// tap and must drain or close it. Layers that watch every session (a
	// screen emulator answering terminal queries) use it. It must not
	// block.
	OnSpawn func(info SessionInfo, owner *Owner, tap *Tap)
	// OnEvent, when set, is called for every input, resize, settled send
	// and change of control of every session (see [Event]), in order per
	// session, under the session's lock: it must be quick, must not block
	// and must not call the service.
	OnEvent func(Event)
	// HumanControl says what the owner's sends do while a person is in
	// control of the session (see [Service.TakeOver]): refused with
	// HUMAN_IN_CONTROL (the default) or held until the hand-back.
	HumanControl HumanPolicy
	// CloseTimeout bounds a close when its context has no deadline.
	// Default 10s.
	CloseTimeout time.Duration
}

// ScrollbackLimits bound a session's retained output (see
// scrollback.Limits).
type ScrollbackLimits = scrollback.Limits

// DefaultScrollback holds the default scrollback bounds.
var DefaultScrollback = ScrollbackLimits{MaxLines: 10_000, MaxBytes: 4 << 20, MaxLineBytes: 64 << 10}

// Default values for Options.
const (
	DefaultSendTimeout  = 30 * time.Second
	DefaultQuietWindow  = 3 * time.Second
	DefaultSpawnSettle  = 2 * time.Second
	DefaultSpawnQuiet   = 300 * time.Millisecond
	DefaultMaxSendBytes = 1 << 20
	// DefaultMaxQueuedSends is Options.MaxQueuedSends's default.
	DefaultMaxQueuedSends = 4
	DefaultPageLines      = 500
	MaxPageLinesLimit     = 10_000
	DefaultCloseTimeout   = 10 * time.Second
)

func scrollbackWithDefaults(l, d ScrollbackLimits) ScrollbackLimits {
	if l.MaxLines <= 0 {
		l.MaxLines = d.MaxLines
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = d.MaxLineBytes
	}
	return l
}

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	o.Scrollback = scrollbackWithDefaults(o.Scrollback, DefaultScrollback)
	if o.SendTimeout <= 0 {
		o.SendTimeout = DefaultSendTimeout
	}
	if o.QuietWindow <= 0 {
		o.QuietWindow = DefaultQuietWindow
	}
	if o.SpawnSettle <= 0 {
		o.SpawnSettle = DefaultSpawnSettle
	}
	if o.SpawnQuiet <= 0 {
		o.SpawnQuiet = DefaultSpawnQuiet
	}
	if o.MaxSendBytes <= 0 {
		o.MaxSendBytes = DefaultMaxSendBytes
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	if o.MaxQueuedSends <= 0 {
		o.MaxQueuedSends = DefaultMaxQueuedSends
	}
	if o.MaxPageLines <= 0 {
		o.MaxPageLines = DefaultPageLines
	}
	if o.CloseTimeout <= 0 {
		o.CloseTimeout = DefaultCloseTimeout
	}
	return o
}
