package localpty

import (
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// A system call on the master (a probe's ioctl, a resize) never holds up
// the read loop or a write: while one is in progress, input still goes in
// and output comes out (before, withMaster held the session's lock, which
// Read and TryWrite take, across the call).
func TestMasterCallDoesNotHoldUpReadsAndWrites(t *testing.T) {
	need(t, "cat")
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"cat"}})
	entered, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- tm.s.withMaster("test", func(int) error {
			close(entered)
			<-release // a call that takes its time
			return nil
		})
	}()
	<-entered
	wrote := make(chan error, 1)
	go func() {
		_, err := tm.s.TryWrite([]byte("through-the-call\r"))
		wrote <- err
	}()
	select {
	case err := <-wrote:
		mustf(t, err, "TryWrite")
	case <-time.After(waitLimit):
		close(release)
		t.Fatal("TryWrite waited for a call on the master")
	}
	tm.waitForN("through-the-call", 2) // the echo, then cat's copy
	close(release)
	mustf(t, <-done, "withMaster")
}
