package ptysession

import "github.com/ptyseam/ptyseam/core"

// The core types a caller of the facade meets, under the facade's own
// names, so that the common path imports ptysession alone. They are
// aliases: a ptysession.SessionID is a core.SessionID.
type (
	// Owner is the identity every call is authorized against (see
	// [NewOwner]).
	Owner = core.Owner
	// SessionID is a terminal session's service-minted id ("pty_...").
	SessionID = core.SessionID
	// Status is a session's status: running, or exited with a code or a
	// signal.
	Status = core.Status
	// WaitReason says why a send returned.
	WaitReason = core.WaitReason
	// Signal names a signal a session's foreground program may be sent.
	Signal = core.Signal
	// Error is the error type of every failure; match it with errors.Is
	// against the Err* values below, or read its Code with [CodeOf].
	Error = core.Error
	// Code is an error's stable code.
	Code = core.Code
	// OutputDelta is output produced so far by a running send (see
	// SendRequest.Progress).
	OutputDelta = core.OutputDelta
)

// NewOwner returns a new owner with a display name; only the returned
// pointer authorizes (two owners with one name are different owners).
func NewOwner(name string) *Owner { return core.NewOwner(name) }

// CodeOf returns the stable code of err ("" for nil and for errors
// without one).
func CodeOf(err error) Code { return core.CodeOf(err) }

// Why a send returned.
const (
	WaitPrompt       = core.WaitPrompt
	WaitStdinRead    = core.WaitStdinRead
	WaitRemotePrompt = core.WaitRemotePrompt
	WaitInferredIdle = core.WaitInferredIdle
	WaitTimeout      = core.WaitTimeout
	WaitSessionExit  = core.WaitSessionExit
	WaitCancelled    = core.WaitCancelled
)

// The signals [Sessions.Signal] sends.
const (
	SIGINT  = core.SIGINT
	SIGTERM = core.SIGTERM
	SIGKILL = core.SIGKILL
	SIGTSTP = core.SIGTSTP
	SIGHUP  = core.SIGHUP
	SIGQUIT = core.SIGQUIT
	SIGCONT = core.SIGCONT
)

// Errors to match with errors.Is; each matches every error of its code.
var (
	ErrNoSession       = core.ErrNoSession
	ErrForeignSession  = core.ErrForeignSession
	ErrSendActive      = core.ErrSendActive
	ErrSessionExited   = core.ErrSessionExited
	ErrDuplicateName   = core.ErrDuplicateName
	ErrTooManySessions = core.ErrTooManySessions
	ErrOwnerDisposed   = core.ErrOwnerDisposed
	ErrInvalidArgument = core.ErrInvalidArgument
	ErrCancelled       = core.ErrCancelled
	ErrWrongKind       = core.ErrWrongKind
	ErrCleanupFailed   = core.ErrCleanupFailed
)
