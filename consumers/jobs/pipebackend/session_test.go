//go:build unix

package pipebackend

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

func TestMergedOutputAndExitCode(t *testing.T) {
	s := spawn(t, New(Options{}), "sh", "-c", "echo out; echo err >&2; printf tail; exit 3")
	r := startReader(s)
	r.waitEOF(t)
	<-s.Exited()
	if got := r.text(); got != "out\nerr\ntail" {
		t.Fatalf("output %q", got)
	}
	if st := s.ExitStatus(); st != core.ExitedWithCode(3) {
		t.Fatalf("status %v", st)
	}
	if s.PID() <= 0 || string(s.Facts().Enter) != "\n" {
		t.Fatalf("pid %d enter %q", s.PID(), s.Facts().Enter)
	}
}

func TestWriteReachesProgram(t *testing.T) {
	s := spawn(t, New(Options{}), "cat")
	r := startReader(s)
	if _, err := s.Write(context.Background(), []byte("hello pipe\n")); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "hello pipe\n")
	if st := s.ExitStatus(); st.Exited() {
		t.Fatalf("cat exited early: %v", st)
	}
}

// TestEOFWhileGrandchildHoldsPipe: a grandchild that left the program's
// process group (so the hang-up at exit does not reach it) still holds
// the output pipe; Read reports EOF after the drain window anyway.
func TestEOFWhileGrandchildHoldsPipe(t *testing.T) {
	s := spawn(t, New(Options{}), "sh", "-c", "setsid sleep 300 & echo started $!")
	r := startReader(s)
	r.waitEOF(t)
	out := r.text()
	m := regexp.MustCompile(`started (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("output %q", out)
	}
	child, _ := strconv.Atoi(m[1])
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	assertGone(t, child)
}

func TestSignalGroup(t *testing.T) {
	s := spawn(t, New(Options{}), "sleep", "300")
	if _, err := s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGKILL}); !errors.Is(err, core.ErrSignalRefused) {
		t.Fatalf("SIGKILL without AllowLeader: %v", err)
	}
	res, err := s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGTERM})
	if err != nil || !res.Delivered || res.TargetPGID != s.pid || res.Method != "pgid" {
		t.Fatalf("SIGTERM: %+v %v", res, err)
	}
	select {
	case <-s.Exited():
	case <-time.After(testenv.HangBound):
		t.Fatal("sleep ignored SIGTERM")
	}
	if st := s.ExitStatus(); st != core.ExitedWithSignal("SIGTERM") {
		t.Fatalf("status %v", st)
	}
	if _, err := s.Signal(context.Background(), core.SignalRequest{Signal: core.SIGINT}); !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("signal after exit: %v", err)
	}
	if _, err := s.Signal(context.Background(), core.SignalRequest{Signal: "SIGWHAT"}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("bad signal: %v", err)
	}
}

func TestCloseKillsSetsidDaemonAndStubbornProcess(t *testing.T) {
	b := New(Options{CloseGrace: 100 * time.Millisecond})
	// The daemon leaves the group and the tree (setsid, then its parent
	// exits); the program itself ignores SIGTERM.
	s := spawn(t, b, "sh", "-c", `sh -c 'setsid sleep 300 & echo daemon $!'; trap "" TERM; echo ready; while :; do sleep 1; done`)
	r := startReader(s)
	out := r.waitFor(t, "ready")
	m := regexp.MustCompile(`daemon (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("output %q", out)
	}
	daemon, _ := strconv.Atoi(m[1])
	if _, err := os.Stat("/proc/" + m[1]); err != nil {
		t.Fatalf("daemon %d not running before close: %v", daemon, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	assertGone(t, daemon)
	assertGone(t, s.pid)
	if err := s.Close(ctx); err != nil {
		t.Fatalf("second close: %v", err)
	}
	r.waitEOF(t)
	if st := s.ExitStatus(); st != core.ExitedWithSignal("SIGKILL") {
		t.Fatalf("status %v, want SIGKILL after the grace", st)
	}
	if _, err := s.Write(ctx, []byte("x")); !errors.Is(err, core.ErrSessionClosing) {
		t.Fatalf("write after close: %v", err)
	}
}

func TestWriteReturnsWhenCtxEnds(t *testing.T) {
	s := spawn(t, New(Options{}), "sleep", "300") // never reads stdin
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	n, err := s.Write(ctx, make([]byte, 1<<20))
	if !errors.Is(err, context.DeadlineExceeded) || n >= 1<<20 {
		t.Fatalf("write = %d, %v", n, err)
	}
	// A later write with a live ctx is not hit by the old deadline.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, err := s.Write(ctx2, []byte("x")); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second write: %v", err)
	}
}

func TestWriteAfterExitIsSessionExited(t *testing.T) {
	s := spawn(t, New(Options{}), "true")
	r := startReader(s)
	r.waitEOF(t)
	<-s.Exited()
	_, err := s.Write(context.Background(), []byte("late\n"))
	if !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("write after exit: %v", err)
	}
}

func TestResizeUnsupported(t *testing.T) {
	s := spawn(t, New(Options{}), "true")
	if err := s.Resize(context.Background(), core.Size{Rows: 10, Cols: 10}); !errors.Is(err, core.ErrUnsupported) {
		t.Fatalf("resize: %v", err)
	}
}

func TestSpawnErrors(t *testing.T) {
	b := New(Options{})
	ctx := context.Background()
	cases := []struct {
		req  core.BackendRequest
		want error
	}{
		{core.BackendRequest{}, core.ErrInvalidArgument},
		{core.BackendRequest{Command: []string{"/nonexistent/program"}}, core.ErrSpawnFailed},
		{core.BackendRequest{Command: []string{"true"}, Dir: "/nonexistent/dir"}, core.ErrInvalidArgument},
		{core.BackendRequest{Command: []string{"true"}, Dir: "/etc/passwd"}, core.ErrInvalidArgument},
		{core.BackendRequest{Command: []string{"true"}, Options: 1}, core.ErrInvalidArgument},
	}
	for _, c := range cases {
		if _, err := b.Spawn(ctx, c.req); !errors.Is(err, c.want) {
			t.Errorf("spawn %+v: %v, want %v", c.req, err, c.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Spawn(cctx, core.BackendRequest{Command: []string{"sleep", "300"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled spawn: %v", err)
	}
}

func TestEnvDirAndMarker(t *testing.T) {
	dir := t.TempDir()
	// Unique per run: a session's close kills every process carrying its
	// marker, another run's too.
	marker := "m123-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	bs, err := New(Options{}).Spawn(context.Background(), core.BackendRequest{
		Command: []string{"sh", "-c", `echo "$PWD|$GREETING|$` + MarkerEnv + `"`},
		Dir:     dir,
		Env:     []string{"GREETING=hi"},
		Marker:  marker,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := bs.(*session)
	defer s.Close(context.Background())
	r := startReader(s)
	r.waitEOF(t)
	if got, want := strings.TrimSpace(r.text()), dir+"|hi|"+marker; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

// TestExitHangsUpTheProcessGroup: when the program exits, what it left in
// its process group is hung up without a Close; a child that ignores
// SIGHUP is killed after CloseGrace.
func TestExitHangsUpTheProcessGroup(t *testing.T) {
	s := spawn(t, New(Options{CloseGrace: 100 * time.Millisecond}), "sh", "-c", `trap "" HUP; sleep 300 & echo started $!`)
	r := startReader(s)
	r.waitEOF(t)
	m := regexp.MustCompile(`started (\d+)`).FindStringSubmatch(r.text())
	if m == nil {
		t.Fatalf("output %q", r.text())
	}
	child, _ := strconv.Atoi(m[1])
	<-s.Exited()
	// The kill comes CloseGrace after the hang-up; when the kernel has
	// delivered it is load: HangBound only ends a hang.
	deadline := time.Now().Add(testenv.HangBound)
	for !(proc{pid: child}).zombieOrGone() {
		if time.Now().After(deadline) {
			t.Fatalf("child %d that ignores SIGHUP survived its program's exit", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
