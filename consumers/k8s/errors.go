package k8s

import (
	"errors"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// ErrAPIServerLost matches the errors of calls on a session whose
// connection to the API server was lost while its pod went on running (a
// network cut, the API server's restart): the session has ended with
// Status.Reason [ReasonAPIServerLost], and the service's SESSION_EXITED
// errors match it (through core.Prober's ExitCause), and remote.ErrConnectionLost
// too. The agent in the pod sees its stdin end and ends what it started;
// Close deletes a created pod through a new connection.
var ErrAPIServerLost = errors.New("k8s: the connection to the API server was lost")

// ErrPodGone matches the errors of calls on a session whose pod was
// deleted, evicted or ended under it (by someone other than the session):
// Status.Reason is [ReasonPodGone], and the service's SESSION_EXITED
// errors match it (and remote.ErrConnectionLost).
var ErrPodGone = errors.New("k8s: the pod was deleted or evicted under the session")

// ErrExecRefused matches a spawn whose exec into the pod was refused: no
// such pod or container, a container that does not run, or a user the
// API server does not allow to exec (code SPAWN_FAILED).
var ErrExecRefused = errors.New("k8s: exec refused")

// ErrAPI matches a spawn that failed because the API server could not be
// reached or refused a request other than the exec (creating the pod), or
// because the pod did not start (code SPAWN_FAILED).
var ErrAPI = errors.New("k8s: API request failed")

// ErrImageNotAllowed matches a spawn refused because its image, or its
// existing pod, is not in the deployer's allowlist (code
// INVALID_ARGUMENT).
var ErrImageNotAllowed = errors.New("k8s: image or pod not allowed")

// ReasonPodGone is the Status.Reason of a session whose pod was deleted
// or evicted under it.
const ReasonPodGone = "pod deleted"

// ReasonAPIServerLost is the Status.Reason of a session whose connection
// to the API server was lost.
const ReasonAPIServerLost = "API server connection lost"

// spawnErr wraps a failed API call made while spawning: code
// SPAWN_FAILED, matching kind (ErrAPI or ErrExecRefused) and err.
func spawnErr(kind error, what string, err error) error {
	return &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: what, Err: fmt.Errorf("%w: %w", kind, err)}
}

// invalid reports a bad target: code INVALID_ARGUMENT.
func invalid(format string, args ...any) error {
	return &core.Error{Code: core.CodeInvalidArgument, Op: "spawn", Msg: fmt.Sprintf(format, args...)}
}
