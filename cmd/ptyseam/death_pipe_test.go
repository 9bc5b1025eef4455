package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/procfs"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestSIGKILLEndsAPipeJobsEscapee: a job on the pipe backend whose shell
// ignores SIGTERM and SIGHUP leaves its sleep behind when the server is
// SIGKILLed together with its guard (the parent-death signal ends only the
// shell); the next server's start ends it, as it ends a terminal's
// escapees, by reaping the dead server's cgroup leaves.
func TestSIGKILLEndsAPipeJobsEscapee(t *testing.T) {
	if _, err := localpty.ReapStaleCgroups(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if !cgroupUsable() {
		t.Skip("no writable cgroup v2 here: a SIGKILLed server's escapees cannot be found (see docs/hardening.md)")
	}
	p := startStdio(t, io.Discard, "--log-level", "error")
	launched := p.call(t, "bg_launch", map[string]any{"command": "sh", "args": []string{"-c", "trap '' TERM HUP; sleep 602"}, "backend": "pipe"})
	if launched["status"] != "running" {
		t.Fatalf("bg_launch: %v", launched)
	}
	// The server carries the marker too: wait for the sleep itself.
	sleep := 0
	for deadline := time.Now().Add(testenv.HangBound); sleep == 0; time.Sleep(20 * time.Millisecond) {
		for _, pid := range survivors(runMarker) {
			if cmd, err := os.ReadFile(procfs.Path(pid, "cmdline")); err == nil && string(cmd) == "sleep\x00602\x00" {
				sleep = pid
			}
		}
		if sleep == 0 && time.Now().After(deadline) {
			t.Fatalf("the job's sleep did not start: %s", describe(survivors(runMarker)))
		}
	}
	guard := guardOf(t, p.cmd.Process.Pid)
	_ = syscall.Kill(guard, syscall.SIGKILL)
	_ = syscall.Kill(p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exit.done
	// The shell dies with the server (parent-death signal); the sleep,
	// ignoring SIGTERM and SIGHUP like its shell, is left, its guard gone.
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && len(survivors(runMarker)) > 1 {
		time.Sleep(20 * time.Millisecond)
	}
	after := len(survivors(runMarker))
	if !alive(sleep) {
		t.Fatal("the sleep did not outlive the server and its guard: nothing was left for the next start to end")
	}
	next := startStdio(t, io.Discard, "--log-level", "error")
	requireNothingLeft(t, "after the next start", next.cmd.Process.Pid)
	t.Logf("%d process(es) of the pipe job left after SIGKILL, 0 after the next start", after)
}

// guardOf returns the pid of the guard the server pid started (a child
// whose command line names ptyseam-guard), waiting for it to appear.
func guardOf(t *testing.T, pid int) int {
	t.Helper()
	for deadline := time.Now().Add(testenv.HangBound); ; time.Sleep(20 * time.Millisecond) {
		kids, _ := procfs.ListChildren(pid, nil)
		for _, k := range kids {
			if cmd, err := os.ReadFile(procfs.Path(k, "cmdline")); err == nil && bytes.Contains(cmd, []byte("ptyseam-guard")) {
				return k
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server %d started no guard", pid)
		}
	}
}
