//go:build linux

package testharness

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// procStat reads a process's state letter and start time (in clock ticks
// since boot) from /proc/PID/stat.
func procStat(pid int) (state byte, start uint64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+2:]))
	// Fields after the name: state is the first, starttime the 20th.
	if len(f) < 20 {
		return 0, 0, false
	}
	start, err = strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], start, true
}

// processIdentity returns what tells this process from a later one that
// reuses its pid.
func processIdentity(pid int) uint64 {
	_, start, _ := procStat(pid)
	return start
}

// processAlive reports whether pid names a running process (not a zombie)
// with the given identity (0: any).
func processAlive(pid int, identity uint64) bool {
	if pid <= 0 || unix.Kill(pid, 0) == unix.ESRCH {
		return false
	}
	state, start, ok := procStat(pid)
	if !ok {
		return false
	}
	if state == 'Z' || state == 'X' || state == 'x' {
		return false
	}
	return identity == 0 || start == identity
}

// processesRunning lists live processes whose executable is path.
func processesRunning(path string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		exe, err := os.Readlink("/proc/" + e.Name() + "/exe")
		if err != nil || strings.TrimSuffix(exe, " (deleted)") != path {
			continue
		}
		if processAlive(pid, 0) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func killProcess(pid int) { _ = unix.Kill(pid, unix.SIGKILL) }

// processesWithEnv lists processes whose environment holds entry
// ("NAME=VALUE").
func processesWithEnv(entry string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(entry)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
