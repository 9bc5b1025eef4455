package sshdtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// RunOpenSSH runs the OpenSSH client against the server as its test user,
// with a pseudo-terminal (-tt), in batch mode, authenticating with the
// private key in keyFile and checking the host key against knownHosts,
// and runs command there with its output discarded. It returns the wall
// time the client took and the client's CPU time (user and system): the
// yardstick benchmarks hold ptyseam's own ssh client against.
func (s *Server) RunOpenSSH(ctx context.Context, keyFile, knownHosts, command string) (wall, cpu time.Duration, err error) {
	cmd := exec.CommandContext(ctx, "ssh", "-tt", "-q", "-o", "BatchMode=yes", "-o", "UserKnownHostsFile="+knownHosts,
		"-i", keyFile, "-p", strconv.Itoa(s.Port), s.User+"@"+s.Host, command)
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, 0, err
	}
	defer devnull.Close()
	cmd.Stdout = devnull
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("ssh: %w", err)
	}
	wall = time.Since(start)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// ProcessCPU returns the user and system CPU time this process has used so
// far: a benchmark takes it before and after its own client's work to set
// it beside RunOpenSSH's figure.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
