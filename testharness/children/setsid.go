package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
)

// Hidden subcommands of setsid-grandchild. Go cannot fork without exec, so
// the double fork re-executes this binary.
const (
	middleCommand  = "_setsid-middle"
	sleeperCommand = "_sleep-forever"
)

// runSetsidGrandchild starts a child in a new session (setsid) that starts
// a grandchild and exits at once, as a daemon does. The grandchild keeps
// the terminal open, is in no process group of the terminal and has no
// controlling terminal, so neither SIGHUP nor a signal to the foreground
// group reaches it.
func runSetsidGrandchild(args []string) int {
	if len(args) != 0 {
		return fail("usage: setsid-grandchild")
	}
	self, err := os.Executable()
	if err != nil {
		return fail("setsid-grandchild: %v", err)
	}
	mid := exec.Command(self, middleCommand)
	mid.Stdin = os.Stdin
	mid.Stderr = os.Stderr
	mid.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := mid.Output()
	if err != nil {
		return fail("setsid-grandchild: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(bytes.TrimSpace(out))))
	if err != nil || pid <= 0 {
		return fail("setsid-grandchild: bad grandchild pid %q", out)
	}
	writeOut(fmt.Sprintf("grandchild %d\n", pid))
	sleepForever()
	return 0
}

// runSetsidMiddle is the middle process: it starts the grandchild with the
// terminal as its standard streams, reports its pid on standard output (a
// pipe to the parent) and exits without waiting for it.
func runSetsidMiddle([]string) int {
	self, err := os.Executable()
	if err != nil {
		return 1
	}
	gc := exec.Command(self, sleeperCommand)
	gc.Stdin = os.Stdin
	gc.Stdout = os.Stderr
	gc.Stderr = os.Stderr
	if err := gc.Start(); err != nil {
		return 1
	}
	fmt.Println(gc.Process.Pid)
	return 0
}

func runSleepForever([]string) int {
	sleepForever()
	return 0
}

func runIgnoreTerm(args []string) int {
	if len(args) != 0 {
		return fail("usage: ignore-term")
	}
	signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
	writeOut("ready\n")
	sleepForever()
	return 0
}
