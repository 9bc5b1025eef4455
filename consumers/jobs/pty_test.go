//go:build unix

package jobs

import (
	"context"
	"testing"
)

func TestHTTPServerOnPTY(t *testing.T) { testHTTPServer(t, BackendPTY) }

func TestAutoPrefersPTY(t *testing.T) {
	f := newFixture(t, Config{})
	in := f.launch(t, sh("tty"))
	if in.Backend != BackendPTY {
		t.Fatalf("auto chose %s", in.Backend)
	}
	f.waitOutput(t, in.ID, "/dev/pts/")
	pipe := f.launch(t, LaunchRequest{Command: "sh", Args: []string{"-c", "tty || true"}, Backend: BackendPipe})
	f.waitOutput(t, pipe.ID, "not a tty")
}

// TestCtrlCStopsForegroundProgram sends "\x03" through the terminal: the
// line discipline turns it into SIGINT for the foreground program. The
// program says "working" only once its handler is in place, so a Ctrl-C
// that follows at once (a loaded machine) is still caught.
func TestCtrlCStopsForegroundProgram(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPTY})
	in := f.launch(t, LaunchRequest{Command: "python3", Args: []string{"-c",
		"import time\ntry:\n    print('working', flush=True)\n    time.sleep(300)\nexcept KeyboardInterrupt:\n    print('interrupted', flush=True)\n    raise SystemExit(130)"}})
	f.waitOutput(t, in.ID, "working")
	res, err := f.m.Write(context.Background(), f.owner, in.ID, `\x03`)
	if err != nil || res.Bytes != 1 || res.Echo != `\x03` {
		t.Fatalf("write: %+v %v", res, err)
	}
	end := f.waitEnded(t, in.ID)
	if end.State != StateFailed || end.ExitCode == nil || *end.ExitCode != 130 {
		t.Fatalf("after Ctrl-C: %+v", end)
	}
	f.waitOutput(t, in.ID, "interrupted")

	// A program that does not catch it dies of SIGINT.
	sl := f.launch(t, LaunchRequest{Command: "sleep", Args: []string{"300"}})
	if _, err := f.m.Write(context.Background(), f.owner, sl.ID, `\cC`); err != nil {
		t.Fatal(err)
	}
	if e := f.waitEnded(t, sl.ID); e.State != StateFailed || e.Signal != "SIGINT" {
		t.Fatalf("sleep after Ctrl-C: %+v", e)
	}
}
