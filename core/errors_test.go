package core

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestErrorIsMatchesByCode(t *testing.T) {
	err := newError(CodeForeignSession, "send", "pty_x", "the session belongs to another owner")
	wrapped := fmt.Errorf("tool: %w", err)
	if !errors.Is(wrapped, ErrForeignSession) {
		t.Fatalf("errors.Is(%v, ErrForeignSession) = false", wrapped)
	}
	if errors.Is(wrapped, ErrNoSession) {
		t.Fatalf("a FOREIGN_SESSION error matched ErrNoSession")
	}
	var e *Error
	if !errors.As(wrapped, &e) || e.Session != "pty_x" || e.Op != "send" {
		t.Fatalf("errors.As lost the details: %+v", e)
	}
	if got := CodeOf(wrapped); got != CodeForeignSession {
		t.Fatalf("CodeOf = %q", got)
	}
	if CodeOf(nil) != "" || CodeOf(errors.New("plain")) != "" {
		t.Fatalf("CodeOf of nil or a plain error must be empty")
	}
}

func TestCancelledMatchesContextErrors(t *testing.T) {
	err := cancelled("spawn", "", context.Canceled)
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled error does not match both ErrCancelled and context.Canceled: %v", err)
	}
}

func TestCleanupErrorKeepsCause(t *testing.T) {
	cause := context.DeadlineExceeded
	cleanup := errors.New("sleep survived")
	err := error(&CleanupError{Cause: cause, Err: cleanup, Survivors: []int{42}})
	if !errors.Is(err, cause) || !errors.Is(err, cleanup) || !errors.Is(err, ErrCleanupFailed) {
		t.Fatalf("CleanupError does not match its cause, its failure and ErrCleanupFailed: %v", err)
	}
	if CodeOf(err) != CodeCleanupFailed {
		t.Fatalf("CodeOf = %q", CodeOf(err))
	}
	var ce *CleanupError
	if !errors.As(fmt.Errorf("close: %w", err), &ce) || ce.Survivors[0] != 42 {
		t.Fatalf("errors.As lost the survivors")
	}
}

// TestErrorBoundsTheSessionItNames: an error names the session a caller
// passed, and a caller may pass a megabyte of any bytes: the message
// keeps its first 64 bytes, as valid UTF-8.
func TestErrorBoundsTheSessionItNames(t *testing.T) {
	long := SessionID("pty_\xff" + strings.Repeat("x", 1<<20))
	msg := (&Error{Code: CodeNoSession, Op: "send", Session: long, Msg: "no such session"}).Error()
	if len(msg) > 200 || !utf8.ValidString(msg) || !strings.Contains(msg, "(session pty_\uFFFDxxx") || !strings.Contains(msg, "...)") {
		t.Fatalf("message of %d bytes: %.200q", len(msg), msg)
	}
	if msg := (&Error{Code: CodeNoSession, Session: "pty_abc"}).Error(); msg != "NO_SESSION (session pty_abc)" {
		t.Fatalf("a session id as minted: %q", msg)
	}
}
