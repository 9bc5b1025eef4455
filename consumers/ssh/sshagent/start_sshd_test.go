package sshagent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshagent"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
)

// TestStartOneChannel: with the agent already in the far side's cache, a
// connect opens one channel (the start, which checks the cached binary and
// execs it); a missing or changed cached file costs the start, the upload
// and a checked start of the uploaded file.
func TestStartOneChannel(t *testing.T) {
	// sshd records the start of each session's command before running it.
	dir, err := os.MkdirTemp("", "ptyseam-channels-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	log := filepath.Join(dir, "channels")
	if err := os.WriteFile(log, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, log} {
		if err := os.Chmod(p, map[bool]os.FileMode{true: 0o755, false: 0o666}[p == dir]); err != nil {
			t.Fatal(err)
		}
	}
	srv := sshdtest.Start(t, sshdtest.Options{ExtraConfig: `ForceCommand echo "$SSH_ORIGINAL_COMMAND" | head -c 60 >> ` + log + `; echo >> ` + log + `; exec "$SHELL" -c "$SSH_ORIGINAL_COMMAND"` + "\n"})
	tg := target(t, srv)
	d, _ := dialer(t, sshagent.Options{})
	channels := func() []string {
		t.Helper()
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(log, 0); err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	connect := func() {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		c, err := d.Connect(ctx, tg)
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		_ = c.Close()
	}
	connect() // the agent is in the cache now (uploaded if it was not)
	t.Logf("first connect: %q", channels())
	connect()
	if got := channels(); len(got) != 1 {
		t.Fatalf("a start with the agent cached opened %d channels, want 1: %q", len(got), got)
	}
}
