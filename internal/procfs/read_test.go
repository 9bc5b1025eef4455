package procfs

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"testing"
)

// TestListChildrenFindsAChild: a child this process started is in its
// threads' children files, and a process with no children lists none.
func TestListChildrenFindsAChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	got, err := ListChildren(os.Getpid(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, cmd.Process.Pid) {
		t.Errorf("ListChildren(self) = %v, without the child %d", got, cmd.Process.Pid)
	}
	none, err := ListChildren(cmd.Process.Pid, nil)
	if err != nil || len(none) != 0 {
		t.Errorf("ListChildren(sleep) = %v, %v; want none", none, err)
	}
}
