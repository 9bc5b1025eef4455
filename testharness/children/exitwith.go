package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// exitSignals are the signals exit-with can die by: those the Go runtime
// turns into a plain death by the same signal when nothing handles them.
var exitSignals = map[string]syscall.Signal{
	"SIGHUP":  syscall.SIGHUP,
	"SIGINT":  syscall.SIGINT,
	"SIGKILL": syscall.SIGKILL,
	"SIGTERM": syscall.SIGTERM,
	"SIGUSR1": syscall.SIGUSR1,
	"SIGUSR2": syscall.SIGUSR2,
	"SIGALRM": syscall.SIGALRM,
}

// parseExitSpec reads "CODE" (decimal 0..255, no sign or leading zero)
// or a signal name ("SIGTERM" or "TERM", any case).
func parseExitSpec(s string) (code int, sig syscall.Signal, err error) {
	if n, aerr := strconv.Atoi(s); aerr == nil {
		if n < 0 || n > 255 || strconv.Itoa(n) != s {
			return 0, 0, fmt.Errorf("exit code %q is not a decimal in 0..255", s)
		}
		return n, 0, nil
	}
	name := strings.ToUpper(s)
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	if sig, ok := exitSignals[name]; ok {
		return 0, sig, nil
	}
	return 0, 0, fmt.Errorf("%q is neither an exit code nor a supported signal", s)
}

func runExitWith(args []string) int {
	if len(args) != 1 {
		return fail("usage: exit-with CODE|SIGNAL")
	}
	code, sig, err := parseExitSpec(args[0])
	if err != nil {
		return fail("exit-with: %v", err)
	}
	writeOut("exit-with " + args[0] + "\n")
	if sig == 0 {
		return code
	}
	_ = syscall.Kill(os.Getpid(), sig)
	time.Sleep(10 * time.Second) // the signal arrives first
	return 1
}
