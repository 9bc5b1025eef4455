package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// spawnLimited starts argv under sb's limits, or, where the kernel gives
// this process no cgroup v2 controllers, checks that the session is
// refused (UNSUPPORTED, nothing left behind) and skips the rest.
func spawnLimited(t *testing.T, sb localpty.Sandbox, argv ...string) (*core.Service, *core.Owner, core.SpawnResult) {
	t.Helper()
	svc := service(t, sb)
	owner := core.NewOwner("test")
	res, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: argv})
	if err != nil {
		if core.CodeOf(err) != core.CodeUnsupported || !strings.Contains(err.Error(), "refused") {
			t.Fatalf("spawn: %v, want a session or UNSUPPORTED", err)
		}
		if leaves, _ := filepath.Glob(filepath.Join("/sys/fs/cgroup", "*", "ptyseam-"+strconv.Itoa(os.Getpid())+"-*")); len(leaves) > 0 {
			t.Fatalf("a refused session left cgroup leaves: %v", leaves)
		}
		t.Skipf("refused as it must be where the controllers are missing, so enforcement is not tested here: %v", err)
	}
	return svc, owner, res
}

// leafOf returns the cgroup v2 directory of process pid.
func leafOf(t *testing.T, pid int) string {
	t.Helper()
	mounts, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		t.Fatal(err)
	}
	var mount string
	for _, l := range strings.Split(string(mounts), "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[2] == "cgroup2" {
			mount = f[1]
		}
	}
	cg, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(cg), "\n") {
		if rest, ok := strings.CutPrefix(l, "0::"); ok && mount != "" {
			return filepath.Join(mount, rest)
		}
	}
	t.Fatalf("no cgroup v2 leaf for pid %d", pid)
	return ""
}

// TestForkBombStopsAtPidsLimit: a fork bomb in a session with PidsMax 64
// is held there (fork fails), and the session still closes cleanly.
func TestForkBombStopsAtPidsLimit(t *testing.T) {
	svc, owner, res := spawnLimited(t, localpty.Sandbox{PidsMax: 64, Network: true},
		"bash", "-c", `bomb() { bomb | bomb & }; bomb; wait`)
	// Wait until the kernel refused a fork for the limit (pids.events
	// counts them), then close.
	events := filepath.Join(leafOf(t, res.PID), "pids.events")
	deadline := time.Now().Add(waitLimit)
	for {
		b, err := os.ReadFile(events)
		if err != nil {
			t.Fatal(err)
		}
		if f := strings.Fields(string(b)); len(f) == 2 && f[0] == "max" && f[1] != "0" {
			t.Logf("pids.events: %s", strings.TrimSpace(string(b)))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fork bomb never reached the limit: %s", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	start := time.Now()
	if _, err := svc.Close(ctx, owner, res.ID, "test"); err != nil {
		t.Fatalf("close after a fork bomb: %v", err)
	}
	t.Logf("closed in %v", time.Since(start))
}

// TestMemoryHogIsKilled: a program allocating without end in a session
// with MemoryMax 64 MiB is killed by the kernel; the server lives.
func TestMemoryHogIsKilled(t *testing.T) {
	svc, owner, res := spawnLimited(t, localpty.Sandbox{MemoryMax: 64 << 20, Network: true},
		"python3", "-c", `b = []
while True: b.append(bytearray(1 << 20))`)
	st, err := svc.Wait(ctxT(t), owner, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Close(ctxT(t), owner, res.ID, "test"); err != nil {
		t.Fatal(err)
	}
	if st.Signal != "SIGKILL" {
		t.Fatalf("the hog ended %s, want killed (SIGKILL) by the memory limit", st)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	t.Logf("the hog: %s; this process lives with %d MB of heap", st, m.HeapAlloc>>20)
}
