package remote

import (
	"errors"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// Errors a caller matches with errors.Is.
var (
	// ErrConnectionLost: the stream to the agent ended while sessions
	// used it. Every session on it has exited with Status.Reason
	// "connection lost", and the SESSION_EXITED errors of later calls
	// wrap it (through core.Prober.ExitCause).
	ErrConnectionLost = errors.New("remote: connection to the agent lost")
	// ErrAgentMissing: the far side did not answer with an agent's hello
	// (the program is not there, or something else answered).
	ErrAgentMissing = errors.New("remote: agent missing")
	// ErrAgentVersion: the agent speaks no protocol version this host
	// speaks.
	ErrAgentVersion = errors.New("remote: agent version incompatible")
	// ErrAgentArch: the agent binary does not fit the far side's
	// operating system or architecture.
	ErrAgentArch = errors.New("remote: agent of another architecture")
)

// AgentError says why connecting to an agent failed. It matches its Kind
// (ErrAgentMissing, ErrAgentVersion or ErrAgentArch) with errors.Is.
type AgentError struct {
	Kind error
	// Msg says what happened and what to do.
	Msg string
	// Output is what the far side printed instead of a hello (a shell's
	// "not found", the kernel's "Exec format error"), trimmed.
	Output string
}

// Error implements error.
func (e *AgentError) Error() string {
	s := e.Kind.Error() + ": " + e.Msg
	if e.Output != "" {
		s += fmt.Sprintf("; the far side said: %q", e.Output)
	}
	return s
}

// Unwrap returns Kind.
func (e *AgentError) Unwrap() error { return e.Kind }

// reasonConnectionLost is the Status.Reason of a session whose stream
// ended.
const reasonConnectionLost = "connection lost"

// lostError is the error of a call that failed because the stream ended:
// SESSION_EXITED saying what to do next (lostNext), or for a spawn
// (wrapped in SPAWN_FAILED by spawnFailed) to spawn on a new connection.
func lostError(op string, cause error) error {
	msg := lostNext
	if op == opSpawn {
		msg = lostSpawnNext
	}
	e := &core.Error{Code: core.CodeSessionExited, Op: op, Msg: msg, Err: ErrConnectionLost}
	if cause != nil && !errors.Is(cause, ErrConnectionLost) {
		e.Err = fmt.Errorf("%w (%v)", ErrConnectionLost, cause)
	}
	return e
}

// lostNext says what happened to a session whose stream to the agent was
// lost, and what to do next.
const lostNext = "the connection to the agent was lost, which ended the session; " +
	"close the session, and open a new one once the host is reachable (it runs on a new connection to the agent)"

// lostSpawnNext says what to do when a spawn finds its connection ended.
const lostSpawnNext = "the connection to the agent was lost; " +
	"spawn the session on a new connection to the agent (remote.Connect) once the host is reachable"
