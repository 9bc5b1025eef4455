package pipebackend

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// procScanWorks reports that findMembers can see the session's processes.
const procScanWorks = true

// proc names one process by pid and start time, so a reused pid is never
// mistaken for it.
type proc struct {
	pid   int
	start uint64
}

type procStat struct {
	ppid, pgid int
	state      byte
	start      uint64
}

// readStat parses /proc/PID/stat. The command name is in parentheses and
// may contain anything, so fields are counted after the last ')'.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(b)
}

func parseStat(b []byte) (procStat, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+2:]))
	// f[0] state, f[1] ppid, f[2] pgrp, ... f[19] starttime.
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, false
	}
	return procStat{ppid: ppid, pgid: pgid, state: f[0][0], start: start}, true
}

func dead(state byte) bool { return state == 'Z' || state == 'X' || state == 'x' }

// findMembers returns the live processes that belong to the session whose
// program is root (and whose process group is root too): members of that
// group, descendants of root, and processes whose environment carries the
// session marker.
func findMembers(root int, marker string) []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	stats := make(map[int]procStat, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if st, ok := readStat(pid); ok {
			stats[pid] = st
		}
	}
	var needle []byte
	if marker != "" {
		needle = []byte(MarkerEnv + "=" + marker + "\x00")
	}
	var out []proc
	for pid, st := range stats {
		if dead(st.state) {
			continue
		}
		if pid == root || st.pgid == root || descends(pid, root, stats) || hasMarker(pid, needle) {
			out = append(out, proc{pid: pid, start: st.start})
		}
	}
	return out
}

func descends(pid, root int, stats map[int]procStat) bool {
	for range 64 { // process trees this deep do not happen; loops cannot
		st, ok := stats[pid]
		if !ok || st.ppid <= 1 {
			return false
		}
		if st.ppid == root {
			return true
		}
		pid = st.ppid
	}
	return false
}

func hasMarker(pid int, needle []byte) bool {
	if needle == nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	return bytes.HasPrefix(b, needle) || bytes.Contains(b, append([]byte{0}, needle...))
}

// alive reports whether p still runs (a zombie does not).
func (p proc) alive() bool {
	st, ok := readStat(p.pid)
	return ok && st.start == p.start && !dead(st.state)
}

// signal sends sig to p if it is still the same process.
func (p proc) signal(sig syscall.Signal) {
	if p.alive() {
		_ = syscall.Kill(p.pid, sig)
	}
}

// groupLive reports whether the process group pgid has a member that is
// not a zombie.
func groupLive(pgid int) bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && st.pgid == pgid && !dead(st.state) {
			return true
		}
	}
	return false
}
