package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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
		if leaves := ourLeaves(); len(leaves) > 0 {
			t.Fatalf("a refused session left cgroup leaves: %v", leaves)
		}
		t.Skipf("refused as it must be where the controllers are missing, so enforcement is not tested here: %v", err)
	}
	return svc, owner, res
}

// pidsLeaf returns the cgroup directory that counts process pid against
// its pids limit: its cgroup v2 leaf, or on a hybrid host its leaf in
// the v1 pids hierarchy.
func pidsLeaf(t *testing.T, pid int) string {
	t.Helper()
	mounts, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		t.Fatal(err)
	}
	var v2, v1 string
	for _, l := range strings.Split(string(mounts), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) > 3 && f[2] == "cgroup2":
			v2 = f[1]
		case len(f) > 3 && f[2] == "cgroup" && slices.Contains(strings.Split(f[3], ","), "pids"):
			v1 = f[1]
		}
	}
	cg, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(cg), "\n") {
		parts := strings.SplitN(l, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" && v2 != "" {
			if dir := filepath.Join(v2, parts[2]); fileExists(filepath.Join(dir, "pids.events")) {
				return dir
			}
		}
		if slices.Contains(strings.Split(parts[1], ","), "pids") && v1 != "" {
			return filepath.Join(v1, parts[2])
		}
	}
	t.Fatalf("no pids cgroup for pid %d:\n%s", pid, cg)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestForkBombStopsAtPidsLimit: a fork bomb in a session with PidsMax 64
// is held there (fork fails), and the session still closes cleanly.
func TestForkBombStopsAtPidsLimit(t *testing.T) {
	svc, owner, res := spawnLimited(t, localpty.Sandbox{PidsMax: 64, Network: true},
		"bash", "-c", `bomb() { bomb | bomb & }; bomb; read -r x`)
	// Wait until the kernel refused a fork for the limit (pids.events
	// counts them), then close.
	leaf := pidsLeaf(t, res.PID)
	events := filepath.Join(leaf, "pids.events")
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
			cur, _ := os.ReadFile(filepath.Join(leaf, "pids.current"))
			procs, _ := os.ReadFile(filepath.Join(leaf, "cgroup.procs"))
			t.Fatalf("the fork bomb never reached the limit in %s: %s, pids.current %s, procs %q", leaf, b, cur, procs)
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
	if leaves := ourLeaves(); len(leaves) > 0 {
		t.Fatalf("the session's cgroups outlived its close: %v", leaves)
	}
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
	if leaves := ourLeaves(); len(leaves) > 0 {
		t.Fatalf("the session's cgroups outlived its close: %v", leaves)
	}
	if st.Signal != "SIGKILL" {
		t.Fatalf("the hog ended %s, want killed (SIGKILL) by the memory limit", st)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	t.Logf("the hog: %s; this process lives with %d MB of heap", st, m.HeapAlloc>>20)
}

// ourLeaves lists the session cgroups of this process left anywhere under
// /sys/fs/cgroup (v2 and v1 hierarchies, a few levels deep).
func ourLeaves() []string {
	prefix := "ptyseam-" + strconv.Itoa(os.Getpid()) + "-"
	var found []string
	_ = filepath.WalkDir("/sys/fs/cgroup", func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if strings.HasPrefix(d.Name(), prefix) {
			found = append(found, p)
			return filepath.SkipDir
		}
		if strings.Count(p, "/") > 6 {
			return filepath.SkipDir
		}
		return nil
	})
	return found
}
