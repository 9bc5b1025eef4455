package gdbmi

import (
	"errors"

	"github.com/ptyseam/ptyseam/core"
)

// ErrExited matches (with errors.Is) every [*ExitedError]: gdb exited, was
// killed, or its output ended.
var ErrExited = errors.New("gdbmi: gdb exited")

// ErrClosed is returned by calls on a [Client] after Close.
var ErrClosed = errors.New("gdbmi: client closed")

// ErrInvalidCommand is returned by [Client.Exec] for a command that cannot
// be sent (empty, or holding a line end).
var ErrInvalidCommand = errors.New("gdbmi: invalid command")

// ErrGDBError matches (with errors.Is) every [*MIError].
var ErrGDBError = errors.New("gdbmi: gdb reported an error")

// MIError is gdb's ^error result for a command.
type MIError struct {
	// Command is the command as sent, without its token.
	Command string
	// Msg is gdb's message ("No symbol \"x\" in current context.").
	Msg string
	// Code is gdb's error code, when it gives one ("undefined-command").
	Code string
}

// Error implements error.
func (e *MIError) Error() string {
	s := "gdbmi: " + e.Command + ": " + e.Msg
	if e.Code != "" {
		s += " (" + e.Code + ")"
	}
	return s
}

// Is makes errors.Is(err, ErrGDBError) true.
func (e *MIError) Is(target error) bool { return target == ErrGDBError }

// ExitedError reports that gdb is gone. Every call pending when it went
// returns one at once, and so does every later call.
type ExitedError struct {
	// Status is gdb's session status when the client learned of the end
	// (Kind "running" if the exit was not yet recorded: for example when
	// the output stream failed).
	Status core.Status
	// Err is what ended the stream: nil for a plain end of output, or the
	// failure (for example a tap overflow).
	Err error
}

// Error implements error.
func (e *ExitedError) Error() string {
	s := "gdbmi: gdb exited"
	if e.Status.Exited() {
		s += " (" + e.Status.String() + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is makes errors.Is(err, ErrExited) true.
func (e *ExitedError) Is(target error) bool { return target == ErrExited }

// Unwrap returns the stream failure, if any.
func (e *ExitedError) Unwrap() error { return e.Err }

// StartError reports that gdb could not be started and made ready.
type StartError struct {
	// Step names what failed ("spawn gdb", "inferior terminal", "set up").
	Step string
	// Output holds the last non-MI lines gdb printed, if any (for
	// example "Interpreter `mi3' unrecognized").
	Output string
	// Err is the cause.
	Err error
}

// Error implements error.
func (e *StartError) Error() string {
	s := "gdbmi: start: " + e.Step
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Output != "" {
		s += " (gdb said: " + e.Output + ")"
	}
	return s
}

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }
