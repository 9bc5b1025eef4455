package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// hostTmpDir makes a directory directly under the host's /tmp (not
// $TMPDIR: the test is about /tmp), removed when the test ends.
func hostTmpDir(t *testing.T, pattern string) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// checkOutput fails the test unless out holds every string of want and
// none of refused (writes the session must not have made).
func checkOutput(t *testing.T, who, out string, want, refused []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s's output lacks %q:\n%s", who, w, out)
		}
	}
	for _, r := range refused {
		if strings.Contains(out, r) {
			t.Errorf("%s's output holds %q, a write it must not have made:\n%s", who, r, out)
		}
	}
}

// TestEachSessionHasItsOwnTmp: with TmpBytes, a session writes, and runs
// what it wrote, in a /tmp that a live session beside it and the host do
// not see, up to its size; the host's directories under /tmp that the
// policy lists stay there, writable or read-only as listed.
func TestEachSessionHasItsOwnTmp(t *testing.T) {
	rw, ro := hostTmpDir(t, "ptyseam-rw-"), hostTmpDir(t, "ptyseam-ro-")
	if err := os.WriteFile(filepath.Join(ro, "given"), []byte("given by the host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svc := service(t, localpty.Sandbox{ReadOnly: []string{"/", ro}, Writable: []string{rw}, TmpBytes: 1 << 20})
	owner := core.NewOwner("test")
	mark := filepath.Base(rw) + "-only-a"
	a := start(t, svc, owner, "sh", "-c", `echo a > /tmp/`+mark+`; echo write=$?
printf '#!/bin/sh\necho ran from tmp\n' > /tmp/x.sh && chmod +x /tmp/x.sh && /tmp/x.sh
head -c 2000000 /dev/zero > /tmp/big 2>/dev/null; echo big=$?
echo from-a > `+rw+`/f; echo rw=$?
cat `+ro+`/given; echo no > `+ro+`/g 2>/dev/null; echo ro=$?
echo ready; sleep 60`)
	checkOutput(t, "session A", waitOutput(t, svc, owner, a.ID, `ready`), []string{"write=0", "ran from tmp", "rw=0", "given by the host"}, []string{"big=0", "ro=0"})
	st, out := run(t, svc, "sh", "-c", `ls /tmp/`+mark+` 2>/dev/null; echo seen=$?; cat `+rw+`/f`)
	if !strings.Contains(out, "seen=") || strings.Contains(out, "seen=0") || !strings.Contains(out, "from-a") {
		t.Errorf("session B (%s), beside A: want A's /tmp file unseen and the shared directory's file seen:\n%s", st, out)
	}
	// A session started in a directory of the host's /tmp that no list
	// names finds it where its path leads, read-only.
	wd := hostTmpDir(t, "ptyseam-wd-")
	if err := os.WriteFile(filepath.Join(wd, "here"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Dir: wd, Command: []string{"sh", "-c", `cd "$PWD" && ls; echo no > new 2>/dev/null; echo wd=$?`}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Wait(ctxT(t), owner, c.ID); err != nil {
		t.Fatal(err)
	}
	if out := output(t, svc, owner, c.ID); !strings.Contains(out, "here") || !strings.Contains(out, "wd=") || strings.Contains(out, "wd=0") {
		t.Errorf("a session started in %s: want its file listed and a write refused:\n%s", wd, out)
	}
	if _, err := os.Stat("/tmp/" + mark); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("session A's /tmp file is on the host's /tmp: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(rw, "f")); err != nil || string(b) != "from-a\n" {
		t.Errorf("the listed writable directory on the host holds %q (%v), want A's write", b, err)
	}
	if _, err := os.Stat(filepath.Join(ro, "g")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was created in the read-only directory: %v", err)
	}
}

// TestListingTmpSharesTheHostsTmp: /tmp itself among the writable paths
// keeps the host's /tmp, whatever TmpBytes says.
func TestListingTmpSharesTheHostsTmp(t *testing.T) {
	svc := service(t, localpty.Sandbox{Writable: []string{"/tmp"}, TmpBytes: 1 << 20})
	name := filepath.Base(hostTmpDir(t, "ptyseam-shared-")) + "-f"
	t.Cleanup(func() { _ = os.Remove("/tmp/" + name) })
	if _, out := run(t, svc, "sh", "-c", "echo shared > /tmp/"+name+"; echo rc=$?"); !strings.Contains(out, "rc=0") {
		t.Fatalf("a write to the host's /tmp: %s", out)
	}
	if b, err := os.ReadFile("/tmp/" + name); err != nil || string(b) != "shared\n" {
		t.Fatalf("the host's /tmp holds %q (%v), want the session's write", b, err)
	}
}
