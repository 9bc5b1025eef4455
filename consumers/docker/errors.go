package docker

import (
	"errors"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// ErrContainerStopped matches the errors of calls on a session whose
// container was stopped, killed or removed by someone other than the
// session (docker kill, docker rm -f, the engine's shutdown). The
// service's SESSION_EXITED errors for such a session match it too
// (through core.Prober.ExitCause); the session's Status.Reason is
// [ReasonContainerStopped].
var ErrContainerStopped = errors.New("docker: the container was stopped under the session")

// ErrEngineLost matches the errors of calls on a session whose connection
// to the engine was lost while its container went on running (a network
// cut, the engine's restart): the session has ended with Status.Reason
// [ReasonEngineLost], and the service's SESSION_EXITED errors match it
// (through core.Prober.ExitCause). With the agent inside, they match
// remote.ErrConnectionLost too. Close still ends what the session started
// (through a new connection).
var ErrEngineLost = errors.New("docker: the connection to the engine was lost")

// ErrImageNotAllowed matches a spawn refused because its image is not in
// BackendOptions.AllowedImages (code INVALID_ARGUMENT).
var ErrImageNotAllowed = errors.New("docker: image not allowed")

// ErrEngine matches a spawn that failed because the engine could not be
// reached or refused the request: no dockerd, an unknown image, a
// container that is not running (code SPAWN_FAILED).
var ErrEngine = errors.New("docker: engine request failed")

// ReasonContainerStopped is the Status.Reason of a session whose container
// was stopped under it.
const ReasonContainerStopped = "container stopped"

// ReasonEngineLost is the Status.Reason of a session whose connection to
// the engine was lost.
const ReasonEngineLost = "engine connection lost"

// spawnErr wraps a failed engine call made while spawning: code
// SPAWN_FAILED, matching ErrEngine and the engine's error.
func spawnErr(what string, err error) error {
	return &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: what, Err: fmt.Errorf("%w: %w", ErrEngine, err)}
}

// invalid reports a bad target: code INVALID_ARGUMENT.
func invalid(format string, args ...any) error {
	return &core.Error{Code: core.CodeInvalidArgument, Op: "spawn", Msg: fmt.Sprintf(format, args...)}
}
