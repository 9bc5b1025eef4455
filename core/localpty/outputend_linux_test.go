package localpty

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// drainSession spawns script under sh on an exec session of a new
// service; the script gets $FLAG, a file it makes once its output is
// written, as a debugger's report would tell a caller.
func drainSession(t *testing.T, script string) (svc *core.Service, owner *core.Owner, id core.SessionID, pid int, flag string) {
	t.Helper()
	need(t, "sh", "head", "tr", "touch")
	svc = core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	_, err := svc.Register(NewExec(ExecOptions{Options: shortOpts(false)}))
	mustf(t, err, "register")
	t.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	owner = core.NewOwner("drain")
	flag = filepath.Join(t.TempDir(), "written")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	info, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: TypeExec, NoInitialWait: true,
		Command: []string{"sh", "-c", script}, Env: []string{"FLAG=" + flag}})
	mustf(t, err, "spawn")
	return svc, owner, info.ID, info.PID, flag
}

// waitFile waits until path exists (a hang guard, not a timing bound).
func waitFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func scrollbackText(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID) string {
	t.Helper()
	p, err := svc.Read(owner, id, core.PageRequest{Newest: true, Count: 10_000})
	mustf(t, err, "read")
	return strings.Join(p.Lines, "\n")
}

// TestDrainOutputWaitsForAHeldRead: the reader took the program's last
// words from the terminal but has not counted them yet (its goroutine
// descheduled between the read system call and the count): the terminal
// is empty, yet DrainOutput waits for those bytes to reach the
// scrollback.
func TestDrainOutputWaitsForAHeldRead(t *testing.T) {
	svc, owner, id, pid, flag := drainSession(t,
		`stty -echo; echo ready; read x; echo drain-$((6*7)); touch "$FLAG"; exec sleep 60`)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for !strings.Contains(scrollbackText(t, svc, owner, id), "ready") {
		time.Sleep(5 * time.Millisecond)
	}
	var held atomic.Bool
	hook := func(s *session, p []byte) {
		if s.pid == pid && bytes.Contains(p, []byte("drain-42")) {
			held.Store(true)
			time.Sleep(300 * time.Millisecond)
		}
	}
	testHookCountedRead.Store(&hook)
	defer testHookCountedRead.Store(nil)
	_, err := svc.Write(ctx, owner, id, []byte("go\r"))
	mustf(t, err, "write")
	waitFile(t, flag)
	for !held.Load() { // the read is under way, and held
		time.Sleep(time.Millisecond)
	}
	mustf(t, svc.DrainOutput(ctx, owner, id), "drain")
	if out := scrollbackText(t, svc, owner, id); !strings.Contains(out, "drain-42") {
		t.Fatalf("after DrainOutput the scrollback lacks drain-42: %q", out)
	}
}

// TestDrainOutputAfterAFlood: a program wrote 256 KiB (more than the
// terminal and the kernel's buffers behind it hold) and its last line;
// after DrainOutput the scrollback has all of it, each of 20 times.
func TestDrainOutputAfterAFlood(t *testing.T) {
	svc, owner, id, _, flag := drainSession(t, `stty -echo; i=0
while [ $i -lt 20 ]; do
	i=$((i+1)); read x
	head -c 262144 /dev/zero | tr '\0' q; echo; echo "flood-$i-done"
	touch "$FLAG.$i"
done; exec sleep 60`)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for i := 1; i <= 20; i++ {
		_, err := svc.Write(ctx, owner, id, []byte("go\r"))
		mustf(t, err, "write")
		waitFile(t, flag+"."+strconv.Itoa(i))
		mustf(t, svc.DrainOutput(ctx, owner, id), "drain")
		p, err := svc.Read(owner, id, core.PageRequest{Newest: true, Count: 3})
		mustf(t, err, "read")
		if want := "flood-" + strconv.Itoa(i) + "-done"; !strings.Contains(strings.Join(p.Lines, "\n"), want) {
			t.Fatalf("round %d: after DrainOutput the newest lines are %q, want %s", i, p.Lines, want)
		}
	}
}
