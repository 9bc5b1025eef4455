package ptysession

import (
	"context"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// invalid returns an INVALID_ARGUMENT error for op naming field.
func invalid(op string, id core.SessionID, field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id, Msg: msg}
}

// cancelled wraps a context error so that errors.Is matches both
// core.ErrCancelled and the context's error.
func cancelled(op string, id core.SessionID, err error) error {
	return &core.Error{Code: core.CodeCancelled, Op: op, Session: id, Err: err}
}

// checkCall validates what every per-session call takes.
func checkCall(ctx context.Context, op string, owner *core.Owner, id core.SessionID) error {
	if owner == nil {
		return invalid(op, id, "owner", "is nil")
	}
	if id == "" {
		return invalid(op, id, "id", "is empty")
	}
	if core.IsJobID(string(id)) {
		return &core.Error{Code: core.CodeWrongKind, Op: op, Session: id,
			Msg: "the id names a background job, not a terminal session: use the job calls for it"}
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return cancelled(op, id, err)
		}
	}
	return nil
}
