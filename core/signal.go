package core

// Signal names a signal the service may deliver. Names are portable strings
// so that remote backends (ssh) can deliver them too.
type Signal string

// Signals a caller may send.
const (
	SIGINT  Signal = "SIGINT"
	SIGTERM Signal = "SIGTERM"
	SIGKILL Signal = "SIGKILL"
	SIGTSTP Signal = "SIGTSTP"
	SIGHUP  Signal = "SIGHUP"
	SIGQUIT Signal = "SIGQUIT"
	SIGCONT Signal = "SIGCONT"
)

// AllowedSignals lists the signals [Service.Signal] accepts.
var AllowedSignals = []Signal{SIGINT, SIGTERM, SIGKILL, SIGTSTP, SIGHUP, SIGQUIT, SIGCONT}

// Valid reports whether s is one of [AllowedSignals].
func (s Signal) Valid() bool {
	for _, a := range AllowedSignals {
		if a == s {
			return true
		}
	}
	return false
}

// SignalRequest asks for a signal to the session's foreground process group.
type SignalRequest struct {
	Signal Signal
	// AllowLeader permits signals that would hit the session's top-level
	// process group (the shell itself). Without it, SIGKILL aimed at the
	// shell is refused with SIGNAL_REFUSED; other signals are delivered.
	AllowLeader bool
}

// SignalResult says what a signal reached. The JSON names are the tools'
// wire names (pty_signal).
type SignalResult struct {
	// Delivered reports that the signal was delivered.
	Delivered bool `json:"delivered"`
	// TargetPGID is the verified foreground process group that was
	// signalled (0, and omitted, where the backend cannot name one, e.g. a
	// remote PTY).
	TargetPGID int `json:"targetPgid,omitempty"`
	// Leader reports that the target group was the session's top-level
	// process group.
	Leader bool `json:"leader"`
	// Method says how the signal travelled: "pgid" (kill(-pgid)),
	// "ssh-signal", "tty-char" (the signal's key written to the
	// terminal), ...
	Method string `json:"method,omitempty"`
	// Ignored reports that every process of the target group ignored the
	// signal when it was sent (its disposition was SIG_IGN), so it changed
	// nothing: a program started under `trap '' INT` or one that set
	// SIG_IGN itself. Only backends that read the processes' dispositions
	// (the local PTY on Linux, an agent's) set it; SIGKILL and SIGCONT are
	// never ignored.
	Ignored bool `json:"ignored,omitempty"`
	// Raw reports that the program holding the terminal read it raw
	// ([ControlKey].Raw), so the signal travelled as its key (Method
	// "tty-char") and the program handled it as it chooses: it may have
	// ended, abandoned a line, or taken the key as input.
	Raw bool `json:"raw,omitempty"`
}

// Size is a terminal size in character cells.
type Size struct {
	Rows uint16
	Cols uint16
}

// DefaultSize is the terminal size used when a request names none.
var DefaultSize = Size{Rows: 40, Cols: 160}
