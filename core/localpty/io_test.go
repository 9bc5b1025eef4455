package localpty

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/promptmark"
)

func TestCatRoundTrip(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"cat"}})
	tm.send("hello, pty\r")
	// The terminal echoes the line, then cat prints it.
	tm.waitForN("hello, pty\r\n", 2)
	tm.send("\x04") // ^D: end of input
	tm.waitEOF()
	if st := tm.s.ExitStatus(); st != core.ExitedWithCode(0) {
		t.Fatalf("status %v, want exited 0", st)
	}
}

func TestEnvByteExactAndDir(t *testing.T) {
	dir := t.TempDir()
	want, err := filepath.EvalSymlinks(dir)
	mustf(t, err, "evalsymlinks")
	odd := "a b\tc=d 'q' \"dq\" $HOME \\n ü €"
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"sh", "-c", `printf '[%s]\n' "$ODD" "$PTYSEAM_SESSION" "$TERM" "$EMPTY" "$(pwd -P)"`},
		Env:     []string{"ODD=" + odd, "EMPTY="},
		Dir:     dir,
	})
	out := string(tm.waitEOF())
	wantOut := "[" + odd + "]\r\n[" + tm.marker + "]\r\n[" + DefaultTerm + "]\r\n[]\r\n[" + want + "]\r\n"
	if out != wantOut {
		t.Fatalf("output\n%q\nwant\n%q", out, wantOut)
	}
}

func TestEnvRequestOverridesTermNotMarker(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"sh", "-c", `printf '[%s]\n' "$TERM" "$PTYSEAM_SESSION"`},
		Env:     []string{"TERM=dumb", MarkerEnv + "=forged"},
	})
	out := string(tm.waitEOF())
	if want := "[dumb]\r\n[" + tm.marker + "]\r\n"; out != want {
		t.Fatalf("output %q, want %q", out, want)
	}
}

func TestExitCode(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"sh", "-c", "echo bye; exit 3"}})
	out := tm.waitEOF()
	if !bytes.Equal(out, []byte("bye\r\n")) {
		t.Fatalf("output %q", out)
	}
	if st := tm.s.ExitStatus(); st != core.ExitedWithCode(3) {
		t.Fatalf("status %v, want exited 3", st)
	}
}

func TestRunningBeforeExit(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"cat"}})
	if st := tm.s.ExitStatus(); st != core.Running {
		t.Fatalf("status %v, want running", st)
	}
	select {
	case <-tm.s.Exited():
		t.Fatal("Exited closed while cat runs")
	default:
	}
	if tm.s.PID() <= 0 {
		t.Fatalf("PID %d", tm.s.PID())
	}
}

func TestKilledBySignal(t *testing.T) {
	for _, sig := range []string{"KILL", "SEGV", "TERM"} {
		t.Run(sig, func(t *testing.T) {
			tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"sh", "-c", "kill -" + sig + " $$"}})
			tm.waitEOF()
			if st := tm.s.ExitStatus(); st != core.ExitedWithSignal("SIG"+sig) {
				t.Fatalf("status %+v, want killed by SIG%s", st, sig)
			}
		})
	}
}

// burst is the size of the output the burst tests check.
const burst = 5 << 20

// burstProgram prints burst bytes of 'x' (no newline, so the terminal's
// output processing leaves them alone) and exits at once.
var burstProgram = "import sys; sys.stdout.buffer.write(b'x' * " + strconv.Itoa(burst) + "); sys.stdout.flush()"

func TestBurstBeforeEOF(t *testing.T) {
	need(t, "python3")
	b := NewExec(ExecOptions{Options: shortOpts(false)})
	for round := range 20 {
		tm := startTerm(t, b, core.BackendRequest{Command: pyCmd(burstProgram)})
		out := tm.waitEOF()
		if len(out) != burst || bytes.Count(out, []byte{'x'}) != burst {
			t.Fatalf("round %d: got %d bytes (%d x), want %d", round, len(out), bytes.Count(out, []byte{'x'}), burst)
		}
		if st := tm.s.ExitStatus(); st != core.ExitedWithCode(0) {
			t.Fatalf("round %d: status %v", round, st)
		}
	}
}

// TestBurstWithHolder: a background process keeps the terminal open, so
// no EIO comes; Read must still deliver every byte, then io.EOF after the
// drain window. The reader is slow after the exit (longer pauses than the
// drain window between reads) so the deadline path is exercised.
func TestBurstWithHolder(t *testing.T) {
	need(t, "python3", "sleep")
	b := NewExec(ExecOptions{Options: Options{CloseGrace: 150 * time.Millisecond, DrainWindow: 20 * time.Millisecond}})
	for round := range 5 {
		bs, err := b.Spawn(context.Background(), core.BackendRequest{
			// The holder ignores the SIGHUP the kernel sends the
			// foreground group when the session leader exits.
			Command: []string{"sh", "-c", `trap "" HUP; sleep 60 & exec python3 -c "$0"`, burstProgram},
			Marker:  testMarker(t),
		})
		mustf(t, err, "spawn")
		s := bs.(*session)
		got := 0
		buf := make([]byte, 4096)
		for {
			select {
			case <-s.Exited():
				time.Sleep(3 * s.opts.DrainWindow)
			default:
			}
			n, err := s.Read(buf)
			got += bytes.Count(buf[:n], []byte{'x'})
			if err == io.EOF {
				break
			}
			mustf(t, err, "read")
		}
		if got != burst {
			t.Fatalf("round %d: %d bytes before EOF, want %d", round, got, burst)
		}
		// The holder keeps the terminal open (no EIO): EOF can only come
		// from the drain window after the exit.
		if !s.ExitStatus().Exited() {
			t.Fatalf("round %d: EOF before the exit was seen", round)
		}
		if st := s.ExitStatus(); st != core.ExitedWithCode(0) {
			t.Fatalf("round %d: status %v", round, st)
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		mustf(t, s.Close(ctx), "close")
		cancel()
		assertNoSurvivors(t, s.marker)
	}
}

// TestEOFDespiteChattyHolder: the top-level process exits while a
// background process keeps printing; Read still ends (after a bounded
// amount of further output) and Close kills the printer.
func TestEOFDespiteChattyHolder(t *testing.T) {
	need(t, "yes")
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"sh", "-c", `trap "" HUP; yes chatty & sleep 0.1; echo parent-done; exit 5`},
	})
	out := tm.waitEOF()
	if !bytes.Contains(out, []byte("parent-done\r\n")) {
		t.Fatalf("the parent's last line is missing from %d bytes", len(out))
	}
	if st := tm.s.ExitStatus(); st != core.ExitedWithCode(5) {
		t.Fatalf("status %v", st)
	}
}

func TestWriteReturnsWhenContextEnds(t *testing.T) {
	// sleep never reads: once the terminal's input buffer is full a write
	// blocks until its context ends.
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"sleep", "60"}})
	// Complete lines: in canonical mode a full line buffer without a
	// newline discards input instead of blocking the writer.
	big := bytes.Repeat([]byte(strings.Repeat("y", 63)+"\n"), 1<<14)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	n, err := tm.s.Write(ctx, big)
	if !errors.Is(err, context.DeadlineExceeded) || n >= len(big) {
		t.Fatalf("Write = %d, %v; want a short write and DeadlineExceeded", n, err)
	}
	// Cancellation (no deadline) must interrupt a blocked write too.
	ctx2, cancel2 := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel2() }()
	n, err = tm.s.Write(ctx2, big)
	if !errors.Is(err, context.Canceled) || n >= len(big) {
		t.Fatalf("Write = %d, %v; want a short write and Canceled", n, err)
	}
	// A Write waiting behind a blocked one gives up with its own context.
	ctx3, cancel3 := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := tm.s.Write(ctx3, big); done <- err }()
	ctx4, cancel4 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel4()
	if _, err := tm.s.Write(ctx4, []byte("z")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("queued Write: %v, want DeadlineExceeded", err)
	}
	cancel3()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("first Write: %v", err)
	}
}

func TestWriteAfterCloseFails(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"cat"}})
	mustf(t, tm.s.Close(context.Background()), "close")
	if _, err := tm.s.Write(context.Background(), []byte("x")); !errors.Is(err, core.ErrSessionClosing) || !errors.Is(err, os.ErrClosed) {
		t.Fatalf("Write after Close: %v", err)
	}
	if err := tm.s.Resize(context.Background(), core.Size{Rows: 10, Cols: 10}); !errors.Is(err, core.ErrSessionClosing) {
		t.Fatalf("Resize after Close: %v", err)
	}
	if _, err := tm.s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGINT}); !errors.Is(err, core.ErrSessionClosing) {
		t.Fatalf("Signal after Close: %v", err)
	}
}

func TestCloseUnblocksRead(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"sleep", "60"}})
	select {
	case <-tm.eof:
		t.Fatal("Read returned before Close")
	default:
	}
	mustf(t, tm.s.Close(context.Background()), "close")
	tm.waitEOF()
	if st := tm.s.ExitStatus(); !st.Exited() {
		t.Fatalf("status after Close: %v", st)
	}
}

func TestResizeSeenByStty(t *testing.T) {
	tm := startTerm(t, NewShell(ShellOptions{Options: shortOpts(false)}), core.BackendRequest{Size: core.Size{Rows: 24, Cols: 80}})
	tm.waitFor("133;B\a")
	tm.send("stty size\r")
	tm.waitFor("\r24 80\r\n")
	mustf(t, tm.s.Resize(context.Background(), core.Size{Rows: 50, Cols: 132}), "resize")
	tm.send("stty size\r")
	tm.waitFor("\r50 132\r\n")
	if err := tm.s.Resize(context.Background(), core.Size{Rows: 0, Cols: 10}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("zero size: %v", err)
	}
}

func TestShellMarkerCarriesStatus(t *testing.T) {
	tm := startTerm(t, NewShell(ShellOptions{Options: shortOpts(false)}), core.BackendRequest{})
	// The first prompt already carries a D marker (status 0) and a B.
	out := tm.waitFor("\x1b]133;B\a")
	if !bytes.Contains(out, []byte("\x1b]133;D;0;line=0;inq=0;pid=")) {
		t.Fatalf("first prompt without D marker: %q", out)
	}
	for i, c := range []struct{ cmd, status string }{
		{"false", "1"}, {"true", "0"}, {"sh -c 'exit 7'", "7"}, {"(exit 42)", "42"}, {"echo hi", "0"},
	} {
		tm.send(c.cmd + "\r")
		out := tm.waitForN("\x1b]133;B\a", i+2)
		// The marker of this command is the last D before the last B.
		last := out[bytes.LastIndex(out, []byte("\x1b]133;D;")):]
		if want := fmt.Sprintf("\x1b]133;D;%s;line=%d;inq=0;pid=", c.status, i+1); !strings.HasPrefix(string(last), want) {
			t.Fatalf("%s: marker %q, want %q", c.cmd, last[:min(len(last), len(want))], want)
		}
	}
	if n := tm.count("\x1b]133;D;"); n != 6 {
		t.Fatalf("%d D markers for 5 commands and the first prompt", n)
	}
}

func TestShellCommandReplacesShell(t *testing.T) {
	tm := startTerm(t, NewShell(ShellOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"sh", "-c", `printf '%s|%s|%s|%s' "$PAGER" "$GIT_PAGER" "${HISTFILE-unset}" "$PS1"`},
	})
	out := string(tm.waitEOF())
	if want := "cat|cat||" + promptmark.PS1; out != want {
		t.Fatalf("output %q, want %q", out, want)
	}
}
