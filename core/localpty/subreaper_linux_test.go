package localpty

import (
	"maps"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// TestAdoptedChildrenFromTheChildrenFiles: the reaper finds this
// process's children that StartChild did not start (what a subreaper
// adopts) from its threads' children files, as the scan of every process
// it replaced did: a running one, an exited one (a zombie, which is what
// it reaps), and not a child StartChild started.
func TestAdoptedChildrenFromTheChildrenFiles(t *testing.T) {
	running := exec.Command("sleep", "60")
	if err := running.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = running.Process.Kill(); _ = running.Wait() })
	exited := exec.Command("true")
	if err := exited.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = exited.Wait() })
	started := exec.Command("sleep", "60")
	if err := StartChild(started); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = started.Process.Kill(); _ = WaitChild(started) })
	deadline := time.Now().Add(waitLimit)
	for {
		st, err := procfs.ReadStat(exited.Process.Pid, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.State == 'Z' {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("true did not exit within %v", waitLimit)
		}
		time.Sleep(time.Millisecond)
	}

	childMu.Lock()
	got := adoptedChildren()
	all, err := procfs.ListPIDs()
	if err != nil {
		childMu.Unlock()
		t.Fatal(err)
	}
	scanned := adoptedAmong(all)
	childMu.Unlock()

	for name, pid := range map[string]int{"running": running.Process.Pid, "exited": exited.Process.Pid} {
		st, ok := got[pid]
		if !ok {
			t.Errorf("the %s child %d is not among the adopted children %v", name, pid, slices.Collect(maps.Keys(got)))
			continue
		}
		if _, ok := scanned[pid]; !ok {
			t.Errorf("the scan of every process does not find the %s child %d", name, pid)
		}
		if want := name == "exited"; st.State == 'Z' != want {
			t.Errorf("the %s child's state is %c", name, st.State)
		}
	}
	if _, ok := got[started.Process.Pid]; ok {
		t.Errorf("the child StartChild started (%d) is listed as adopted", started.Process.Pid)
	}
}

// BenchmarkAdoptedChildren is the reaper's look for adopted children on
// each SIGCHLD, which a spawn waits for (it holds childMu): from this
// process's children files against the scan of every process it replaced
// (whose cost grows with the processes on the machine).
func BenchmarkAdoptedChildren(b *testing.B) {
	b.Run("children-files", func(b *testing.B) {
		for b.Loop() {
			adoptedChildren()
		}
	})
	b.Run("scan-every-process", func(b *testing.B) {
		for b.Loop() {
			all, err := procfs.ListPIDs()
			if err != nil {
				b.Fatal(err)
			}
			adoptedAmong(all)
		}
	})
}
