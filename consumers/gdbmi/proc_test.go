package gdbmi

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childrenOf returns the pids whose parent is pid, with their command
// names, read from /proc.
func childrenOf(pid int) map[int]string {
	out := map[int]string{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == pid {
			p, _ := strconv.Atoi(strings.Fields(s)[0])
			out[p] = s[open+1 : close]
		}
	}
	return out
}

// waitForChild waits until pid has a descendant (child or grandchild)
// whose command name is name.
func waitForChild(t *testing.T, ctx context.Context, pid int, name string) int {
	t.Helper()
	for {
		for c, n := range childrenOf(pid) {
			if n == name {
				return c
			}
			for g, gn := range childrenOf(c) {
				if gn == name {
					return g
				}
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no %s under pid %d", name, pid)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func killPID(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
}

// running reports whether pid is a live process (not a zombie waiting
// for its parent, or for init, to reap it).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(s[i+1:], " Z")
}
