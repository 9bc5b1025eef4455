package jobs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// On Windows the jobs run on the pipe backend or on the ConPTY one
// (localpty's there), and their program is this test binary in a helper
// role named by jobsHelperEnv (see init): Windows and Wine certainly have
// it. The roles for the ConPTY ("con...") write to CONOUT$, not stdout:
// Wine 8.0 leaves the standard handles of a program on a pseudo console
// null (docs/windows.md).

const jobsHelperEnv = "JOBS_TEST_HELPER"

func init() {
	switch os.Getenv(jobsHelperEnv) {
	case "":
		return
	case "lines": // three lines, then exit 3
		for i := 1; i <= 3; i++ {
			fmt.Printf("line %d\n", i)
		}
		os.Exit(3)
	case "sleep":
		time.Sleep(10 * time.Minute)
		os.Exit(0)
	case "tree", "contree": // a sleeping child, its pid, then sleep
		out := helperOut()
		self, _ := os.Executable()
		c := exec.Command(self)
		c.Env = append(os.Environ(), jobsHelperEnv+"=sleep")
		if err := c.Start(); err != nil {
			fmt.Fprintln(out, "start:", err)
			os.Exit(1)
		}
		fmt.Fprintf(out, "started %d\r\n", c.Process.Pid)
		time.Sleep(10 * time.Minute)
		os.Exit(0)
	case "conlines": // three lines on the console, then exit 3
		out := helperOut()
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(out, "line %d\r\n", i)
		}
		os.Exit(3)
	}
	os.Exit(2)
}

// helperOut is where a helper writes: the console (CONOUT$) for the
// ConPTY roles, stdout for the others.
func helperOut() *os.File {
	if !strings.HasPrefix(os.Getenv(jobsHelperEnv), "con") {
		return os.Stdout
	}
	f, err := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err != nil {
		os.Exit(90)
	}
	return f
}

func helperJob(t *testing.T, role string) LaunchRequest {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return LaunchRequest{Command: self, Env: map[string]string{jobsHelperEnv: role}}
}

func TestWindowsPipeJobOutputAndExit(t *testing.T) {
	linesAndExit(t, Config{Backend: BackendPipe}, "lines", BackendPipe)
}

// Stopping a job ends its program and what the program started (the
// pipe backend's Job Object).
func TestWindowsStopEndsTheJobsTree(t *testing.T) {
	stopEndsTree(t, BackendPipe, "tree")
}

func TestWindowsPTYJobRunsOnConPTY(t *testing.T) {
	linesAndExit(t, Config{Backend: BackendAuto}, "conlines", BackendPTY)
}

// Stopping a job on the ConPTY ends what its program started (the
// session's Job Object).
func TestWindowsStopEndsAConPTYJobsTree(t *testing.T) {
	stopEndsTree(t, BackendPTY, "contree")
}

// linesAndExit launches the helper role under cfg: it must land on want,
// print "line 1" to "line 3" and fail with exit code 3.
func linesAndExit(t *testing.T, cfg Config, role string, want BackendChoice) {
	f := newFixture(t, cfg)
	in := f.launch(t, helperJob(t, role))
	if in.Backend != want {
		t.Fatalf("backend %s, want %s", in.Backend, want)
	}
	end := f.waitEnded(t, in.ID)
	if end.State != StateFailed || end.ExitCode == nil || *end.ExitCode != 3 {
		t.Fatalf("ended %+v, want failed with exit code 3", end)
	}
	res, err := f.m.Read(f.owner, in.ID, ReadRequest{From: ptr(int64(0))})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range res.Lines {
		if txt := strings.TrimSpace(l.Text); txt != "" {
			lines = append(lines, txt)
		}
	}
	if got := strings.Join(lines, "|"); got != "line 1|line 2|line 3" {
		t.Fatalf("lines %q", got)
	}
}

// stopEndsTree launches the helper role, which starts a child and prints
// "started PID", on backend, stops the job and waits for the child to be
// gone.
func stopEndsTree(t *testing.T, backend BackendChoice, role string) {
	f := newFixture(t, Config{Backend: backend, StopGrace: 50 * time.Millisecond})
	in := f.launch(t, helperJob(t, role))
	f.waitOutput(t, in.ID, "started ")
	res, err := f.m.Read(f.owner, in.ID, ReadRequest{From: ptr(int64(0))})
	if err != nil {
		t.Fatal(err)
	}
	var m []string
	for _, l := range res.Lines {
		if m = regexp.MustCompile(`started (\d+)`).FindStringSubmatch(l.Text); m != nil {
			break
		}
	}
	if m == nil {
		t.Fatalf("output %+v", res.Lines)
	}
	child, _ := strconv.Atoi(m[1])
	f.pids = append(f.pids, child)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	stopped, err := f.m.Stop(ctx, f.owner, in.ID, StopOptions{})
	if err != nil || stopped.State != StateStopped {
		t.Fatalf("stop: %+v %v", stopped, err)
	}
	deadline := time.Now().Add(testenv.HangBound)
	for !goneOrZombie(child) {
		if time.Now().After(deadline) {
			t.Fatalf("the job's child %d survived the stop", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
