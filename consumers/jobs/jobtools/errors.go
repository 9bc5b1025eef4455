package jobtools

import (
	"errors"
	"fmt"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
)

// ToolError is a failed call: a stable code string (a core or jobs code),
// a message, and a hint naming the tool to use next. Its fields match
// ptysession/tools.ToolError.
type ToolError struct {
	Code    string
	Message string
	Hint    string
	// Err is the underlying cause, if any.
	Err error
}

// Error implements error.
func (e *ToolError) Error() string {
	if e.Message == "" {
		return e.Code
	}
	return e.Code + ": " + e.Message
}

// Unwrap returns the cause.
func (e *ToolError) Unwrap() error { return e.Err }

// Is matches the core sentinel of the same code, so errors.Is(err,
// core.ErrNoSession) holds for a NO_SESSION tool error.
func (e *ToolError) Is(target error) bool {
	var ce *core.Error
	if errors.As(target, &ce) && ce.Op == "" && ce.Msg == "" && ce.Err == nil && ce.Session == "" {
		return string(ce.Code) == e.Code
	}
	return false
}

// Text renders the error for a model: code, message and hint.
func (e *ToolError) Text() string {
	s := e.Error()
	if e.Hint != "" {
		s += "\nNext: " + e.Hint
	}
	return s
}

var hints = map[core.Code]string{
	core.CodeNoSession:        "No job has this id (it may have been dropped). Call bg_list to see your jobs.",
	core.CodeForeignSession:   "This id is not one of your jobs. Call bg_list to see your jobs.",
	core.CodeSessionExited:    "The job has ended. Read its output with bg_read, or start it again with bg_launch.",
	core.CodeSessionClosing:   "The job is being closed. Call bg_list to see its final state.",
	core.CodeInvalidArgument:  "Fix the named argument and call the tool again.",
	core.CodeNoBackend:        `Launch with backend "pipe" (or "auto").`,
	core.CodeSpawnFailed:      "Check the command name (it must be on PATH or a path) and cwd, then call bg_launch again.",
	core.CodeServiceDisposing: "The job manager is shutting down; no more jobs can be launched.",
	core.CodeCleanupFailed:    "Some processes did not go away; call bg_stop again or report it.",
	core.CodeCancelled:        "The call was cancelled; call the tool again if still needed.",
	jobs.CodeJobRunning:       "Stop it first with bg_stop (drop: true stops and drops in one call).",
	jobs.CodeOutputReleased:   "The job's output is gone; bg_list still shows how it ended.",
}

// toolError converts err into a *ToolError with the code it carries
// (INTERNAL for none) and the hint for that code.
func toolError(err error) *ToolError {
	if err == nil {
		return nil
	}
	var te *ToolError
	if errors.As(err, &te) {
		return te
	}
	code := core.CodeOf(err)
	if code == "" {
		code = core.CodeInternal
	}
	msg := err.Error()
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code == code && ce.Msg != "" {
		msg = ce.Msg
		if ce.Err != nil {
			msg += ": " + ce.Err.Error()
		}
	}
	return &ToolError{Code: string(code), Message: msg, Hint: hints[code], Err: err}
}

// invalidArg is an INVALID_ARGUMENT error about one field.
func invalidArg(field, format string, args ...any) *ToolError {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = fmt.Sprintf("field %q: %s", field, msg)
	}
	return &ToolError{
		Code:    string(core.CodeInvalidArgument),
		Message: msg,
		Hint:    hints[core.CodeInvalidArgument],
		Err:     &core.Error{Code: core.CodeInvalidArgument, Msg: msg},
	}
}
