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

// TestEachSessionHasItsOwnHome: with a /tmp of its own, a session also
// writes in its home directory (caches, dot files, git config --global),
// in a layer over the host's that no other session and not the host sees;
// it reads the host's files there, and the directories under its home
// that the policy lists stay the host's, writable or read-only as listed,
// as does a working directory there that no list names (read-only).
func TestEachSessionHasItsOwnHome(t *testing.T) {
	home, err := os.MkdirTemp("/var/tmp", "ptyseam-home-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(home) })
	rw, ro, wd := filepath.Join(home, "rw"), filepath.Join(home, "ro"), filepath.Join(home, "wd")
	for _, d := range []string{rw, ro, wd} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".profile-given"), []byte("given by the host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svc := service(t, localpty.Sandbox{ReadOnly: []string{"/", ro}, Writable: []string{rw}, TmpBytes: 1 << 20})
	owner := core.NewOwner("test")
	spawn := func(dir, script string) core.SpawnResult {
		res, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Dir: dir, Env: []string{"HOME=" + home}, Command: []string{"sh", "-c", script}, NoInitialWait: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = svc.Close(ctxT(t), owner, res.ID, "test") })
		return res
	}
	a := spawn("/", `echo a > ~/only-a; echo home=$?
mkdir -p ~/.cache/tool && echo c > ~/.cache/tool/x; echo cache=$?
cat ~/.profile-given
echo from-a > ~/rw/f; echo rw=$?
echo no > ~/ro/g 2>/dev/null; echo ro=$?
head -c 2000000 /dev/zero > ~/big 2>/dev/null; echo big=$?
echo ready; sleep 60`)
	checkOutput(t, "session A", waitOutput(t, svc, owner, a.ID, `ready`), []string{"home=0", "cache=0", "given by the host", "rw=0"}, []string{"ro=0", "big=0"})
	b := spawn(wd, `ls ~/only-a 2>/dev/null; echo seen=$?; cat ~/rw/f; echo no > new 2>/dev/null; echo wd=$?; echo done`)
	out := waitOutput(t, svc, owner, b.ID, `done`)
	if !strings.Contains(out, "seen=") || strings.Contains(out, "seen=0") || !strings.Contains(out, "from-a") ||
		!strings.Contains(out, "wd=") || strings.Contains(out, "wd=0") {
		t.Errorf("session B, beside A, started in an unlisted directory of its home: want A's file unseen, the shared directory's file seen and the working directory read-only:\n%s", out)
	}
	for _, name := range []string{"only-a", ".cache", "big", "ro/g", "wd/new"} {
		if _, err := os.Stat(filepath.Join(home, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s reached the host's home: %v", name, err)
		}
	}
	if got, err := os.ReadFile(filepath.Join(rw, "f")); err != nil || string(got) != "from-a\n" {
		t.Errorf("the listed writable directory on the host holds %q (%v), want A's write", got, err)
	}
}
