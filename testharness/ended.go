package testharness

import (
	"context"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// WantEndedWrite checks a write on a remote session whose program has
// exited with code: err is a SESSION_EXITED error that says what to do
// next ("… then close the session") and does not carry the transport's
// own write error (a message starting transport + " write", such as
// "ssh write: EOF", which the service would report as INTERNAL); and the
// session's exit becomes known, bounded by ctx, with that code.
func WantEndedWrite(tb testing.TB, ctx context.Context, s core.BackendSession, err error, transport string, code int) {
	tb.Helper()
	WantEnded(tb, ctx, s, err, transport+" write", code)
}

// WantEnded checks a call (a write, a resize, a signal) on a remote
// session whose program has exited with code: err is a SESSION_EXITED
// error that says what to do next ("… then close the session") and does
// not carry the transport's own error for the call (a message containing
// op, such as "ssh window change", which the service would report as
// INTERNAL); and the session's exit becomes known, bounded by ctx, with
// that code.
func WantEnded(tb testing.TB, ctx context.Context, s core.BackendSession, err error, op string, code int) {
	tb.Helper()
	if c := core.CodeOf(err); c != core.CodeSessionExited {
		tb.Fatalf("%s after the exit: %v (code %q), want %s", op, err, c, core.CodeSessionExited)
	}
	if strings.Contains(err.Error(), op) || !strings.Contains(err.Error(), "close the session") {
		tb.Fatalf("the session-exited error carries the transport's %s error or does not say what to do next: %v", op, err)
	}
	select {
	case <-s.Exited():
	case <-ctx.Done():
		tb.Fatalf("the exit is not known after a %s failed as SESSION_EXITED: %v", op, ctx.Err())
	}
	if st := s.ExitStatus(); st.ExitCode != code {
		tb.Fatalf("status %+v, want exit code %d", st, code)
	}
}
