package core

import (
	"errors"
	"fmt"

	"github.com/ptyseam/ptyseam/internal/runecut"
)

// Code is a stable, machine-readable error code. Codes match the upstream
// seam's codes where one exists, so tool results can carry them verbatim.
type Code string

// Error codes.
const (
	CodeForeignSession   Code = "FOREIGN_SESSION"   // the session belongs to another owner
	CodeNoSession        Code = "NO_SESSION"        // no such session (never existed, or closed)
	CodeSendActive       Code = "SEND_ACTIVE"       // a send is still live on the session
	CodeNoBackend        Code = "NO_BACKEND"        // no backend of the requested type
	CodeDuplicateBackend Code = "DUPLICATE_BACKEND" // a backend of that type is registered already
	CodeDuplicateName    Code = "DUPLICATE_NAME"    // the owner already has a session of that name
	CodeOwnerDisposed    Code = "OWNER_DISPOSED"    // the owner was disposed
	CodeServiceDisposing Code = "SERVICE_DISPOSING" // the service is shutting down
	CodeSessionClosing   Code = "SESSION_CLOSING"   // the session is being closed
	CodeSessionExited    Code = "SESSION_EXITED"    // the session's process has exited
	CodeInvalidArgument  Code = "INVALID_ARGUMENT"  // a malformed request
	CodeTooManySessions  Code = "TOO_MANY_SESSIONS" // the owner reached its session limit
	CodeSpawnFailed      Code = "SPAWN_FAILED"      // the backend could not start the program
	CodeCleanupFailed    Code = "CLEANUP_FAILED"    // teardown left processes or resources behind
	CodeSignalRefused    Code = "SIGNAL_REFUSED"    // the signal would hit the session's own shell
	CodeUnsupported      Code = "UNSUPPORTED"       // the backend cannot do this
	CodeCancelled        Code = "CANCELLED"         // the caller's context ended first
	CodeTapOverflow      Code = "TAP_OVERFLOW"      // a tap's reader fell too far behind
	CodeResourceLimit    Code = "RESOURCE_LIMIT"    // a shared budget (such as emulator memory) is used up
	CodeInternal         Code = "INTERNAL"          // a bug: please report it
	CodeWrongKind        Code = "WRONG_KIND"        // the id names another kind of thing (a job's id given to a terminal call, or the reverse)
	CodeHumanInControl   Code = "HUMAN_IN_CONTROL"  // a person took control of the session; try again after they hand back
)

// Error is the error type of every failure the service reports. Match it
// with errors.Is against the exported sentinels (which compare by Code), or
// with errors.As to read the details.
type Error struct {
	Code    Code      // stable code
	Op      string    // the operation, e.g. "send"
	Session SessionID // the session concerned, if any
	Msg     string    // a human sentence
	Err     error     // the underlying cause, if any
}

// Error implements error.
func (e *Error) Error() string {
	s := string(e.Code)
	if e.Op != "" {
		s = e.Op + ": " + s
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Session != "" {
		s += " (session " + sessionInMsg(e.Session) + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// sessionInMsg is a session id as an error names it: the id a caller
// passed may be any bytes of any length.
func sessionInMsg(id SessionID) string { return runecut.Named(string(id), 64) }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, core.ErrForeignSession) works for every error of that code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Op == "" && t.Msg == "" && t.Err == nil && t.Session == ""
}

// Sentinel errors, one per Code, for use with errors.Is.
var (
	ErrForeignSession   = &Error{Code: CodeForeignSession}
	ErrNoSession        = &Error{Code: CodeNoSession}
	ErrSendActive       = &Error{Code: CodeSendActive}
	ErrNoBackend        = &Error{Code: CodeNoBackend}
	ErrDuplicateBackend = &Error{Code: CodeDuplicateBackend}
	ErrDuplicateName    = &Error{Code: CodeDuplicateName}
	ErrOwnerDisposed    = &Error{Code: CodeOwnerDisposed}
	ErrServiceDisposing = &Error{Code: CodeServiceDisposing}
	ErrSessionClosing   = &Error{Code: CodeSessionClosing}
	ErrSessionExited    = &Error{Code: CodeSessionExited}
	ErrInvalidArgument  = &Error{Code: CodeInvalidArgument}
	ErrTooManySessions  = &Error{Code: CodeTooManySessions}
	ErrSpawnFailed      = &Error{Code: CodeSpawnFailed}
	ErrCleanupFailed    = &Error{Code: CodeCleanupFailed}
	ErrSignalRefused    = &Error{Code: CodeSignalRefused}
	ErrUnsupported      = &Error{Code: CodeUnsupported}
	ErrCancelled        = &Error{Code: CodeCancelled}
	ErrTapOverflow      = &Error{Code: CodeTapOverflow}
	ErrResourceLimit    = &Error{Code: CodeResourceLimit}
	ErrInternal         = &Error{Code: CodeInternal}
	ErrWrongKind        = &Error{Code: CodeWrongKind}
	ErrHumanInControl   = &Error{Code: CodeHumanInControl}
)

// CodeOf returns the Code of err: the code of the first *Error in its
// chain, CodeCleanupFailed for a *CleanupError, or "" for nil and for
// errors that carry no code.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var ce *CleanupError
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Code
	case errors.As(err, &ce):
		return CodeCleanupFailed
	}
	return ""
}

// Errorf builds an *Error with a formatted message. Backends and consumers
// use it to report failures with the service's codes.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// CleanupError reports that tearing something down failed. It keeps the
// original cause (for example the spawn error or the context's cancellation
// that triggered the cleanup) separate from the cleanup failure itself, and
// lists processes that survived. errors.Is matches both the cause and the
// cleanup failure, and ErrCleanupFailed.
type CleanupError struct {
	Cause     error // why cleanup ran (nil for a plain close)
	Err       error // what went wrong while cleaning up
	Survivors []int // pids still alive after the last attempt, if known
}

// Error implements error.
func (e *CleanupError) Error() string {
	s := "CLEANUP_FAILED: " + errString(e.Err)
	if len(e.Survivors) > 0 {
		s += fmt.Sprintf(" (surviving pids %v)", e.Survivors)
	}
	if e.Cause != nil {
		s += "; cleanup was triggered by: " + e.Cause.Error()
	}
	return s
}

// Unwrap returns the cause and the cleanup error.
func (e *CleanupError) Unwrap() []error {
	var errs []error
	if e.Cause != nil {
		errs = append(errs, e.Cause)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// Is makes errors.Is(err, ErrCleanupFailed) true.
func (e *CleanupError) Is(target error) bool { return target == ErrCleanupFailed }

// WithOp returns err with Op set to op when err is an *Error that names no
// operation yet (a copy; the original is left alone), and err unchanged
// otherwise.
func WithOp(err error, op string) error {
	var e *Error
	if errors.As(err, &e) && e.Op == "" {
		c := *e
		c.Op = op
		return &c
	}
	return err
}

func errString(err error) string {
	if err == nil {
		return "unknown failure"
	}
	return err.Error()
}

func newError(code Code, op string, id SessionID, msg string) *Error {
	return &Error{Code: code, Op: op, Session: id, Msg: msg}
}

// cancelled wraps a context error so that errors.Is matches both
// ErrCancelled and context.Canceled / context.DeadlineExceeded.
func cancelled(op string, id SessionID, err error) *Error {
	return &Error{Code: CodeCancelled, Op: op, Session: id, Err: err}
}
