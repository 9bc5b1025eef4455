package localpty

import (
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"golang.org/x/sys/unix"
)

// TestInputWaitCountsOutputWrittenDuringTheProbe: a program that writes
// its question and blocks reading its answer while a probe is under way
// (after the probe started, before it looked at the program's tasks) has
// output in flight, and InputWait must not report it waiting with nothing
// in flight. On a loaded machine pty_wait's input condition fired that way
// on a job, before its question was read from the terminal: the wait
// reported the newest line, still empty, as the question.
func TestInputWaitCountsOutputWrittenDuringTheProbe(t *testing.T) {
	need(t, "sh")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	req := core.BackendRequest{Command: []string{"sh", "-c", `read go; printf 'Deploy? '; read a`}, Marker: testMarker(t)}
	bs, err := NewExec(ExecOptions{Options: shortOpts(false)}).Spawn(ctx, req)
	mustf(t, err, "spawn")
	s := bs.(*session)
	// Nothing reads the terminal in this test: output stays in it.
	defer func() {
		mustf(t, s.Close(ctx), "close")
		assertNoSurvivors(t, req.Marker)
	}()
	probeUntil(t, s, "sh reading its go-ahead", func(st foreground) bool { return st.ReadingInput })

	// During the probe under test, before it looks at the tasks: let sh
	// write its question and block reading the answer.
	hook := func(s *session) {
		testHookProbeBeforeTasks.Store(nil)
		_, err := s.Write(ctx, []byte("go\n"))
		mustf(t, err, "write")
		eventually(t, "the question unread and sh reading again", func() bool {
			unread := 0
			_ = s.withMaster("test", func(fd int) error {
				unread, err = unix.IoctlGetInt(fd, unix.TIOCINQ)
				return err
			})
			if unread < len("go\r\nDeploy? ") {
				return false
			}
			st, err := s.probe()
			return err == nil && st.ReadingInput
		})
	}
	testHookProbeBeforeTasks.Store(&hook)
	defer testHookProbeBeforeTasks.Store(nil)

	w, err := s.InputWait(core.InputBaseline{}, 0)
	mustf(t, err, "input wait")
	if testHookProbeBeforeTasks.Load() != nil {
		t.Fatal("the probe never ran the hook")
	}
	if !w.Reading || w.Waiting {
		t.Fatalf("InputWait = %+v: want reading, not waiting (the question is unread)", w)
	}
	_, err = s.Write(ctx, []byte("y\n"))
	mustf(t, err, "answer")
}
