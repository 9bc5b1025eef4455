package localpty

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// subreaping is set once this process is a child subreaper.
var subreaping atomic.Bool

// BecomeSubreaper makes this process a child subreaper (Linux's
// PR_SET_CHILD_SUBREAPER): a process that leaves its session (a double
// fork, setsid, a cleared environment) is re-parented to this process
// instead of init, so that Close can still find and end it where cgroup v2
// is not available. It also reaps adopted processes that exit, until ctx
// ends.
//
// Call it once, early, from a program's main. After it, every child the
// process starts must go through StartChild and WaitChild (localpty and the
// jobs pipe backend do): any other child would be taken for an adopted
// escapee, and a session's Close could kill it.
func BecomeSubreaper(ctx context.Context, log *slog.Logger) error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return os.NewSyscallError("prctl(PR_SET_CHILD_SUBREAPER)", err)
	}
	subreaping.Store(true)
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, syscall.SIGCHLD)
	go func() {
		defer signal.Stop(sigc)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-sigc:
			case <-tick.C:
			}
			if n := reapAdopted(); n > 0 && log != nil {
				log.Debug("localpty: reaped adopted processes", "count", n)
			}
		}
	}()
	return nil
}

// adoptedChildren lists this process's live or zombie children that it did
// not start through StartChild: adopted escapees. The caller holds childMu
// for writing, so no StartChild is between fork and registration, and a
// spawn waits while it looks: it reads this process's children files, a
// few reads, and scans every process on the machine only where the kernel
// has no children files (each exit of a session's process used to cost
// the next spawn a read of every process's stat).
func adoptedChildren() map[int]procfs.Stat {
	pids, err := procfs.ListChildren(unixGetpid(), nil)
	if err != nil {
		if pids, err = procfs.ListPIDs(); err != nil {
			return nil
		}
	}
	return adoptedAmong(pids)
}

// adoptedAmong returns those of pids that are this process's children and
// were not started through StartChild, with their stat.
func adoptedAmong(pids []int) map[int]procfs.Stat {
	self := unixGetpid()
	buf := make([]byte, 0, 1024)
	out := make(map[int]procfs.Stat)
	for _, pid := range pids {
		st, err := procfs.ReadStat(pid, buf)
		if err != nil || st.PPID != self || isStartedChild(pid) {
			continue
		}
		out[pid] = st
	}
	return out
}

// reapAdopted waits for adopted children that have exited.
func reapAdopted() int {
	childMu.Lock()
	defer childMu.Unlock()
	n := 0
	for pid, st := range adoptedChildren() {
		if st.State != 'Z' {
			continue
		}
		var ws unix.WaitStatus
		if got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil); err == nil && got == pid {
			n++
		}
	}
	return n
}
