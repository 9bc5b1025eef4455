package localpty

import (
	"bytes"
	"errors"
	"os/exec"
	"syscall"
	"testing"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// A procFile read again is the kernel's current content, not what the
// first read saw; it reads a file larger than its buffer (or with no
// buffer) whole; once
// closed, it refuses.
func TestProcFileReadsTheCurrentContent(t *testing.T) {
	need(t, "sleep")
	cmd := exec.Command("sleep", "60")
	mustf(t, cmd.Start(), "start")
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	pid := cmd.Process.Pid
	f := &procFile{path: procfs.TaskPath(pid, pid, "status")}
	state := func() byte {
		t.Helper()
		b, err := f.read(make([]byte, 0, 64)) // smaller than the file
		mustf(t, err, "read")
		if !bytes.HasPrefix(b, []byte("Name:")) {
			t.Fatalf("read %q, want the whole status", b)
		}
		ts, err := procfs.ParseStatus(b)
		mustf(t, err, "parse %q", b)
		return ts.State
	}
	// Not yet stopped: sleeping, running, or in an uninterruptible wait
	// (D) while a busy machine pages its program in.
	if s := state(); s == 'T' {
		t.Fatalf("state %c before the stop", s)
	}
	mustf(t, syscall.Kill(pid, syscall.SIGSTOP), "stop")
	var ws syscall.WaitStatus
	_, err := syscall.Wait4(pid, &ws, syscall.WUNTRACED, nil)
	mustf(t, err, "wait for the stop")
	if s := state(); s != 'T' {
		t.Fatalf("state %c once stopped, want T: the file was not read anew", s)
	}
	if b, err := f.read(nil); err != nil || !bytes.HasPrefix(b, []byte("Name:")) { // no buffer at all
		t.Fatalf("read without a buffer: %q, %v", b, err)
	}
	f.close()
	if _, err := f.read(nil); !errors.Is(err, errProcFileClosed) {
		t.Fatalf("read after close: %v, want errProcFileClosed", err)
	}
}
