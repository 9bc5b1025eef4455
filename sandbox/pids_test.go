package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core/localpty"
)

// TestBackgroundFloodStopsAtPidsLimit: 200 background sleeps in a session
// with PidsMax 64: the forks beyond the limit fail in the session (the
// kernel counts them in pids.events), the session answers afterwards,
// closes cleanly with its 63 sleeps, and the server starts the next
// session.
func TestBackgroundFloodStopsAtPidsLimit(t *testing.T) {
	svc, owner, res := spawnLimited(t, localpty.Sandbox{PidsMax: 64}, "bash", "--norc", "--noprofile", "-i")
	t.Cleanup(func() { _, _ = svc.Close(ctxT(t), owner, res.ID, "test") })
	begin := time.Now()
	// bash retries a fork that failed for the limit for 15 s, then gives
	// up the command line; the line after it runs then.
	if _, err := svc.Write(ctxT(t), owner, res.ID, []byte("for i in $(seq 200); do sleep 1000 & done\necho alive-$((40+2))\n")); err != nil {
		t.Fatal(err)
	}
	out := waitOutput(t, svc, owner, res.ID, `alive-42`)
	t.Logf("answered after %v: %q", time.Since(begin), out[max(0, len(out)-120):])
	leaf := pidsLeaf(t, res.PID)
	events, err := os.ReadFile(filepath.Join(leaf, "pids.events"))
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(string(events)); len(f) != 2 || f[0] != "max" || f[1] == "0" {
		t.Errorf("pids.events %q: the limit refused no fork", events)
	}
	cur, _ := os.ReadFile(filepath.Join(leaf, "pids.current"))
	t.Logf("pids.events %s, pids.current %s", strings.TrimSpace(string(events)), strings.TrimSpace(string(cur)))
	closed := time.Now()
	if _, err := svc.Close(ctxT(t), owner, res.ID, "test"); err != nil {
		t.Fatalf("close after the flood: %v", err)
	}
	t.Logf("closed in %v", time.Since(closed))
	if leaves := ourLeaves(); len(leaves) > 0 {
		t.Fatalf("the session's cgroups outlived its close: %v", leaves)
	}
	if st, out := run(t, svc, "sh", "-c", "echo next-session"); !strings.Contains(out, "next-session") {
		t.Fatalf("the server's next session: %s %q", st, out)
	}
}
