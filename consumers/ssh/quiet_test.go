package ssh

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
)

// TestNoLoggerLogsNothing: a backend given no logger writes nothing to
// the process's default logger, through a connection's whole life.
func TestNoLoggerLogsNothing(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(prev)

	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := NewBackend(BackendOptions{})
	s := spawn(t, b, targetFor(t, srv, "test", Auth{Password: "pw"}), core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)
	if buf.Len() > 0 {
		t.Fatalf("the default logger got: %s", buf.String())
	}
}
