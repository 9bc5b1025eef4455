package pipebackend

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// The Windows tests run programs that Windows (and Wine) certainly has:
// this test binary itself, started in a helper role named by
// helperEnv (see init), rather than sh and its tools.

const helperEnv = "PIPEBACKEND_TEST_HELPER"

func init() {
	role := os.Getenv(helperEnv)
	if role == "" {
		return
	}
	os.Exit(runHelper(role))
}

// runHelper plays one role and returns the exit code.
func runHelper(role string) int {
	switch role {
	case "print": // both streams, then exit 3
		fmt.Fprintln(os.Stdout, "out")
		fmt.Fprintln(os.Stderr, "err")
		return 3
	case "echo": // answer one line of input
		line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		fmt.Printf("got %s\n", strings.TrimSpace(line))
		return 0
	case "sleep":
		time.Sleep(10 * time.Minute)
		return 0
	case "tree", "orphan": // start a sleeping child, say its pid; tree sleeps too, orphan exits
		self, _ := os.Executable()
		c := exec.Command(self)
		c.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := c.Start(); err != nil {
			fmt.Println("start:", err)
			return 1
		}
		fmt.Printf("started %d\n", c.Process.Pid)
		if role == "orphan" {
			return 0
		}
		time.Sleep(10 * time.Minute)
	}
	return 2
}

// spawnHelper starts this test binary as a pipe session in role.
func spawnHelper(t *testing.T, role string) (*session, *reader) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bs, err := New(Options{}).Spawn(context.Background(), core.BackendRequest{Command: []string{self}, Env: []string{helperEnv + "=" + role}})
	if err != nil {
		t.Fatalf("spawn %s: %v", role, err)
	}
	s := bs.(*session)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		assertGone(t, s.pid)
	})
	return s, startReader(s)
}

// childOf returns the pid a tree or orphan helper said it started.
func childOf(t *testing.T, r *reader) int {
	t.Helper()
	m := regexp.MustCompile(`started (\d+)`).FindStringSubmatch(r.waitFor(t, "started "))
	if m == nil {
		t.Fatalf("output %q", r.text())
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	for !(proc{pid: pid}).zombieOrGone() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: process %d survived", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWindowsMergedOutputAndExitCode(t *testing.T) {
	s, r := spawnHelper(t, "print")
	r.waitEOF(t)
	<-s.Exited()
	if out := r.text(); !strings.Contains(out, "out") || !strings.Contains(out, "err") {
		t.Fatalf("output %q, want both streams", out)
	}
	if st := s.ExitStatus(); st.ExitCode != 3 {
		t.Fatalf("status %+v, want exit code 3", st)
	}
}

func TestWindowsWriteReachesProgram(t *testing.T) {
	s, r := spawnHelper(t, "echo")
	if _, err := s.Write(context.Background(), []byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "got hello")
}

// Close ends the program and the child it started: the Job Object holds
// the whole tree.
func TestWindowsCloseEndsTheProcessTree(t *testing.T) {
	s, r := spawnHelper(t, "tree")
	child := childOf(t, r)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	waitGone(t, s.pid, "close")
	waitGone(t, child, "close")
}

// When the program exits, what it left in its job is ended, as a
// terminal's hang-up ends its foreground group.
func TestWindowsExitEndsWhatTheProgramLeft(t *testing.T) {
	s, r := spawnHelper(t, "orphan")
	child := childOf(t, r)
	<-s.Exited()
	waitGone(t, child, "the program's exit")
}

// Signals as Windows has them: SIGTSTP is UNSUPPORTED, SIGKILL needs
// AllowLeader, SIGTERM ends the whole job at once.
func TestWindowsSignals(t *testing.T) {
	s, r := spawnHelper(t, "tree")
	child := childOf(t, r)
	ctx := context.Background()
	if _, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGTSTP}); !errors.Is(err, core.ErrUnsupported) {
		t.Fatalf("SIGTSTP: %v, want UNSUPPORTED", err)
	}
	if _, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGKILL}); !errors.Is(err, core.ErrSignalRefused) {
		t.Fatalf("SIGKILL without AllowLeader: %v", err)
	}
	res, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM})
	if err != nil || !res.Delivered {
		t.Fatalf("SIGTERM: %+v %v", res, err)
	}
	<-s.Exited()
	if st := s.ExitStatus(); st.ExitCode != terminatedExitCode {
		t.Fatalf("status %+v, want exit code %d", st, terminatedExitCode)
	}
	waitGone(t, child, "SIGTERM")
}
