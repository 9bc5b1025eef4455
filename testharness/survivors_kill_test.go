package testharness

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// RunMarked's report kills the survivors it names, so that a failed run
// leaves nothing behind either.
func TestReportSurvivorsKillsThem(t *testing.T) {
	marker := "PTYSEAM_KILL_TEST=" + strconv.FormatInt(time.Now().UnixNano(), 36)
	cmd := exec.Command("sleep", "60")
	cmd.Env = append(os.Environ(), marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var report strings.Builder
	if !reportSurvivors(&report, marker) {
		t.Fatal("the marked sleep was not reported")
	}
	if !strings.Contains(report.String(), strconv.Itoa(cmd.Process.Pid)) || strings.Contains(report.String(), "still alive") {
		t.Fatalf("report %q", report.String())
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("sleep exited normally: it was not killed")
		}
	case <-time.After(testenv.HangBound):
		_ = cmd.Process.Kill()
		t.Fatal("the reported survivor is still running")
	}
	if reportSurvivors(&report, marker) {
		t.Fatal("a second report found survivors")
	}
}
