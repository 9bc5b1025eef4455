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
// time the client took and the client's resource use: the yardstick
// benchmarks hold ptyseam's own ssh client against.
func (s *Server) RunOpenSSH(ctx context.Context, keyFile, knownHosts, command string) (wall time.Duration, use Usage, err error) {
	cmd := exec.CommandContext(ctx, "ssh", "-tt", "-q", "-o", "BatchMode=yes", "-o", "UserKnownHostsFile="+knownHosts,
		"-i", keyFile, "-p", strconv.Itoa(s.Port), s.User+"@"+s.Host, command)
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, Usage{}, err
	}
	defer devnull.Close()
	cmd.Stdout = devnull
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, Usage{}, fmt.Errorf("ssh: %w", err)
	}
	wall = time.Since(start)
	use.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		use.Waits = ru.Nvcsw
	}
	return wall, use, nil
}

// Usage is what a client process used: its CPU time (user and system)
// and its voluntary context switches (the times one of its threads went
// to sleep waiting for something: the network, another thread, a lock),
// which count its wake-ups.
type Usage struct {
	CPU   time.Duration
	Waits int64
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage { return Usage{CPU: u.CPU + v.CPU, Waits: u.Waits + v.Waits} }

// Sub returns u minus v.
func (u Usage) Sub(v Usage) Usage { return Usage{CPU: u.CPU - v.CPU, Waits: u.Waits - v.Waits} }

// ProcessUsage returns what this process has used so far: a benchmark
// takes it before and after its own client's work to set it beside
// RunOpenSSH's figure.
func ProcessUsage() Usage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Usage{}
	}
	return Usage{CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), Waits: ru.Nvcsw}
}
