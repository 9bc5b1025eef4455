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
	f := newFixture(t, Config{Backend: BackendPipe})
	in := f.launch(t, helperJob(t, "lines"))
	if in.Backend != BackendPipe {
		t.Fatalf("backend %s", in.Backend)
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
		lines = append(lines, strings.TrimSpace(l.Text))
	}
	if got := strings.Join(lines, "|"); got != "line 1|line 2|line 3" {
		t.Fatalf("lines %q", got)
	}
}

// Stopping a job ends its program and what the program started (the
// pipe backend's Job Object).
func TestWindowsStopEndsTheJobsTree(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPipe, StopGrace: 50 * time.Millisecond})
	in := f.launch(t, helperJob(t, "tree"))
	f.waitOutput(t, in.ID, "started ")
	res, err := f.m.Read(f.owner, in.ID, ReadRequest{From: ptr(int64(0))})
	if err != nil || len(res.Lines) == 0 {
		t.Fatalf("read: %+v %v", res, err)
	}
	m := regexp.MustCompile(`started (\d+)`).FindStringSubmatch(res.Lines[0].Text)
	if m == nil {
		t.Fatalf("output %q", res.Lines[0].Text)
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

func TestWindowsPTYJobRunsOnConPTY(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendAuto})
	in := f.launch(t, helperJob(t, "conlines"))
	if in.Backend != BackendPTY {
		t.Fatalf("backend %s, want auto to pick the ConPTY", in.Backend)
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

// Stopping a job on the ConPTY ends what its program started (the
// session's Job Object).
func TestWindowsStopEndsAConPTYJobsTree(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPTY, StopGrace: 50 * time.Millisecond})
	in := f.launch(t, helperJob(t, "contree"))
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
