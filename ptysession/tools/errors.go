package tools

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core"
)

// ToolError is the error of a failed tool call. Code is a stable string
// (FOREIGN_SESSION, NO_SESSION, SEND_ACTIVE, INVALID_ARGUMENT, ...; the
// codes of package core), Message says what went wrong and Hint, one
// sentence, what to do next. errors.Is matches the core sentinel of the
// same code (core.ErrNoSession, ...) and the cause.
type ToolError struct {
	// Code is the stable error code.
	Code string
	// Message says what went wrong.
	Message string
	// Hint says, in one sentence, what to do next.
	Hint string
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

// Is matches the core sentinel error of the same code, so that
// errors.Is(err, core.ErrNoSession) holds for a NO_SESSION tool error.
func (e *ToolError) Is(target error) bool {
	var ce *core.Error
	if errors.As(target, &ce) && ce.Op == "" && ce.Msg == "" && ce.Err == nil && ce.Session == "" {
		return string(ce.Code) == e.Code
	}
	return false
}

// maxMessageBytes bounds the code and message in [ToolError.Text].
const maxMessageBytes = 2048

// Text renders the error for a model: the code, the message and the hint.
// A message may quote what a caller sent (a path, a pattern), so its
// control characters other than newline and tab are shown escaped
// ("\x1b"), never as bytes a terminal would act on, and it is cut to
// about 2 KiB.
func (e *ToolError) Text() string {
	s := printable(e.Error(), maxMessageBytes)
	if e.Hint != "" {
		s += "\nNext: " + e.Hint
	}
	return s
}

// InvalidArgument returns an INVALID_ARGUMENT tool error about field (""
// for the arguments as a whole).
func InvalidArgument(field, format string, args ...any) *ToolError {
	msg := aboutField(field, fmt.Sprintf(format, args...))
	return &ToolError{
		Code:    string(core.CodeInvalidArgument),
		Message: msg,
		Hint:    genericHints[core.CodeInvalidArgument],
		Err:     &core.Error{Code: core.CodeInvalidArgument, Msg: msg},
	}
}

// AsToolError converts err to a *ToolError: a *ToolError is returned as
// is; an error with a core code keeps the code, its message and gets hint
// (or a generic hint for the code when hint is ""); any other error becomes
// INTERNAL. nil stays nil.
func AsToolError(err error, hint string) *ToolError {
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
	if hint == "" {
		hint = genericHints[code]
	}
	msg := err.Error()
	var ce *core.Error
	if errors.As(err, &ce) && ce.Msg != "" && ce.Code == code {
		msg = ce.Msg
		if ce.Err != nil {
			msg += ": " + ce.Err.Error()
		}
	}
	return &ToolError{Code: string(code), Message: msg, Hint: hint, Err: err}
}

// genericHints are the fallback next steps per code; tools usually give
// their own, naming their sibling tools.
var genericHints = map[core.Code]string{
	core.CodeInvalidArgument:  "Fix the named argument and call the tool again.",
	core.CodeForeignSession:   "Use only session ids that your own calls returned.",
	core.CodeNoSession:        "The session does not exist or was closed; list your sessions or open a new one.",
	core.CodeSendActive:       "Wait for the running call on this session to finish, or interrupt it, then retry.",
	core.CodeNoBackend:        "Use a backend type that is configured on this server.",
	core.CodeDuplicateName:    "Choose another name or close the session that has it.",
	core.CodeOwnerDisposed:    "This agent's sessions were shut down; no further calls will succeed.",
	core.CodeServiceDisposing: "The server is shutting down; do not retry.",
	core.CodeSessionClosing:   "The session is being closed; open a new one if you still need it.",
	core.CodeSessionExited:    "The program has exited; read its last output, then close the session.",
	core.CodeTooManySessions:  "Close sessions you no longer need, then retry.",
	core.CodeResourceLimit:    "The server's shared budget is used up: close sessions you no longer need, or ask for less, then retry.",
	core.CodeSpawnFailed:      "Check the command, working directory and environment, then retry.",
	core.CodeCleanupFailed:    "Some processes survived the close; retry the close.",
	core.CodeSignalRefused:    "Signal the program, not the session's own shell, or close the session instead.",
	core.CodeUnsupported:      "This kind of terminal cannot do that: do it another way, such as a command sent to the session.",
	core.CodeCancelled:        "The call was cancelled; retry it if it is still needed.",
	core.CodeInternal:         "This is a bug in the tool server; retry once, then report it.",
}

// printable returns s with its control characters (C0 but newline and
// tab, DEL, C1) escaped and invalid UTF-8 replaced, cut to max bytes with
// a marker.
func printable(s string, max int) string {
	clean := len(s) <= max && utf8.ValidString(s)
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for i, r := range s {
		if b.Len() >= max {
			fmt.Fprintf(&b, " [... %d bytes cut]", len(s)-i)
			break
		}
		switch {
		case !isControl(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// isControl reports a character a terminal acts on rather than shows,
// but newline and tab.
func isControl(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0)
}
