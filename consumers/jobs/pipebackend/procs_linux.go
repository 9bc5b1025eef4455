package pipebackend

import (
	"os"
	"syscall"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// procScanWorks reports that findMembers can see the session's processes.
const procScanWorks = true

// proc names one process by pid and start time, so a reused pid is never
// mistaken for it.
type proc struct {
	pid   int
	start uint64
}

// findMembers returns the live processes that belong to the session whose
// program is root (and whose process group is root too): members of that
// group, descendants of root, and processes whose environment carries the
// session marker.
func findMembers(root int, marker string) []proc {
	pids, err := procfs.ListPIDs()
	if err != nil {
		return nil
	}
	stats := make(map[int]procfs.Stat, len(pids))
	for _, pid := range pids {
		if pid == os.Getpid() {
			continue
		}
		if st, err := procfs.ReadStat(pid, nil); err == nil {
			stats[pid] = st
		}
	}
	var out []proc
	for pid, st := range stats {
		if st.Gone() {
			continue
		}
		if pid == root || st.PGRP == root || descends(pid, root, stats) || (marker != "" && procfs.HasEnv(pid, MarkerEnv+"="+marker)) {
			out = append(out, proc{pid: pid, start: st.StartTime})
		}
	}
	return out
}

func descends(pid, root int, stats map[int]procfs.Stat) bool {
	for range 64 { // process trees this deep do not happen; loops cannot
		st, ok := stats[pid]
		if !ok || st.PPID <= 1 {
			return false
		}
		if st.PPID == root {
			return true
		}
		pid = st.PPID
	}
	return false
}

// alive reports whether p still runs (a zombie does not).
func (p proc) alive() bool { return procfs.Alive(p.pid, p.start) }

// signal sends sig to p if it is still the same process.
func (p proc) signal(sig syscall.Signal) {
	if p.alive() {
		_ = syscall.Kill(p.pid, sig)
	}
}

// resume sends SIGCONT to p if it is still the same process.
func (p proc) resume() { p.signal(syscall.SIGCONT) }

// groupLive reports whether the process group pgid has a member that is
// not a zombie.
func groupLive(pgid int) bool {
	pids, err := procfs.ListPIDs()
	if err != nil {
		return false
	}
	for _, pid := range pids {
		if st, err := procfs.ReadStat(pid, nil); err == nil && st.PGRP == pgid && !st.Gone() {
			return true
		}
	}
	return false
}
