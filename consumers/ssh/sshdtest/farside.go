package sshdtest

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// ticks converts clock ticks of /proc (USER_HZ: 100 a second on Linux)
// to a duration.
func ticks(n uint64) time.Duration { return time.Duration(n) * 10 * time.Millisecond }

// Process is one live process of the server's side (a connection's sshd,
// what a session runs) with the CPU it has used so far: the far side of
// a benchmark on loopback, which shares the machine's cores with the
// client.
type Process struct {
	PID, PPID int
	// Name is the kernel's command name (at most 15 bytes: an agent
	// cached as agent-v1-<hash> shows as "agent-v1-<first bytes>").
	Name string
	// CPU is the process's own user and system time; Children that of
	// the children it has waited for (and theirs).
	CPU, Children time.Duration
}

// Processes lists the live processes below the listener (not the
// listener itself), with their CPU times. Clock ticks are 10 ms: a
// figure is exact to that.
func (s *Server) Processes() []Process {
	pids, err := procfs.ListPIDs()
	if err != nil {
		return nil
	}
	root := s.cmd.Process.Pid
	stats := map[int]procfs.Stat{}
	for _, pid := range pids {
		if st, err := procfs.ReadStat(pid, nil); err == nil && !st.Gone() {
			stats[pid] = st
		}
	}
	var out []Process
	for pid, st := range stats {
		below := false
		for p, n := st.PPID, 0; p > 1 && n < 64; n++ {
			if p == root {
				below = true
				break
			}
			pst, ok := stats[p]
			if !ok {
				break
			}
			p = pst.PPID
		}
		if !below {
			continue
		}
		name, _ := os.ReadFile(procfs.Path(pid, "comm"))
		out = append(out, Process{PID: pid, PPID: st.PPID, Name: strings.TrimSpace(string(name)),
			CPU: ticks(st.Utime + st.Stime), Children: ticks(st.CUtime + st.CStime)})
	}
	return out
}

// CPU returns the CPU time sshd and every process it started have used
// so far, ended ones included (Options.AccountCPU: the kernel counts it
// in the server's cgroup). Taken before a client's run and again once
// WaitIdle returns, the difference is all the server's side spent on
// that run.
func (s *Server) CPU() (time.Duration, error) {
	if s.acct == nil {
		return 0, errors.New("sshdtest: the server was started without Options.AccountCPU")
	}
	return s.acct.usage()
}

// WaitIdle waits until no process runs below the listener (every
// connection ended and was waited for), or ctx ends.
func (s *Server) WaitIdle(ctx context.Context) error {
	for len(s.Processes()) > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond): // polling /proc for the exits
		}
	}
	return nil
}
