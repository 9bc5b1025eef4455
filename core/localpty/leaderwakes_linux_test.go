package localpty

import (
	"context"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// The wake-up count kept for a shell's main thread is used while the
// thread has not run since it was read (one schedstat read, no status
// read), and is read again once the thread ran: after a command, the
// count is the kernel's, not the one kept.
func TestLeaderWakesKeptOnlyWhileTheThreadSleeps(t *testing.T) {
	need(t, "bash")
	tm := startTerm(t, NewShell(ShellOptions{Options: shortOpts(false)}), core.BackendRequest{})
	tm.waitForN("\x1b]133;B", 1)
	l := &tm.s.leader
	var before uint64
	eventually(t, "a reading kept", func() bool {
		var err error
		before, err = l.read()
		mustf(t, err, "read")
		reads := l.statusReads.Load()
		again, err := l.read()
		mustf(t, err, "read again")
		return again == before && l.statusReads.Load() == reads // the second was the kept one
	})
	if direct := leaderStatusSwitches(t, tm.s.pid); direct != before {
		t.Fatalf("kept %d, the status file says %d", before, direct)
	}

	tm.send("true\r")
	tm.waitForN("\x1b]133;B", 2)
	eventually(t, "the shell asleep at its next prompt", func() bool {
		reads := l.statusReads.Load()
		after, err := l.read()
		mustf(t, err, "read after the command")
		if l.statusReads.Load() == reads && after == before {
			t.Fatalf("the count kept before the command (%d) was used after it", before)
		}
		return after != before && after == leaderStatusSwitches(t, tm.s.pid)
	})
}

// The service warms the reading once a send settled on the prompt: soon
// after the send, the kept reading is the thread's current one, without
// any read since the send. Without the service's call, the reading kept
// is the one taken before the send's write, which the command made
// stale. A warm reading can go stale by itself (the shell woke after it:
// on a busy machine it may not have reached its read yet when warmed, and
// the retries have a bound), so one of several sends must show it.
func TestServiceWarmsTheBaselineAfterAPromptSettle(t *testing.T) {
	b := sessionCapture{NewShell(ShellOptions{Options: shortOpts(false)}), make(chan *session, 1)}
	svc, owner, info := shellServiceOn(t, b, core.SpawnRequest{})
	s := <-b.spawned
	const sends = 10
	for i := range sends {
		res := sendWait(t, svc, owner, info.ID, "true")
		if res.WaitReason != core.WaitPrompt {
			t.Fatalf("send %d settled on %s", i, res.WaitReason)
		}
		for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if s.leader.current(t) {
				return
			}
		}
	}
	t.Fatalf("none of %d sends left a reading that holds", sends)
}

// current reports whether the kept reading holds now (the thread's
// schedstat is the one read before it), without reading the status.
func (l *leaderWakes) current(t *testing.T) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	at, err := l.schedstat(nil)
	mustf(t, err, "schedstat")
	return l.held && at == l.at
}

// leaderStatusSwitches reads the voluntary switches of pid's main thread
// from its status file.
func leaderStatusSwitches(t *testing.T, pid int) uint64 {
	t.Helper()
	b, err := procfs.ReadFile(procfs.TaskPath(pid, pid, "status"), nil)
	mustf(t, err, "read status")
	ts, err := procfs.ParseStatus(b)
	mustf(t, err, "parse status")
	return ts.VoluntarySwitches
}

// sessionCapture is a backend that hands each session it spawns to the
// test.
type sessionCapture struct {
	*Backend
	spawned chan *session
}

// Spawn returns the session and hands it to the test.
func (b sessionCapture) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := b.spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	b.spawned <- s
	return s, nil
}
