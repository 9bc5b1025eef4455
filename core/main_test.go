package core_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks for leaked goroutines, and for processes that outlived
// the tests: every child inherits a run marker, and no process carrying it
// may remain at the end.
func TestMain(m *testing.M) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	marker := "PTYSEAM_TEST_RUN=" + hex.EncodeToString(b[:])
	os.Setenv("PTYSEAM_TEST_RUN", marker[len("PTYSEAM_TEST_RUN="):])
	code := m.Run()
	if survivors := processesWith(marker); len(survivors) > 0 {
		fmt.Fprintf(os.Stderr, "processes outlived the tests: %v\n", survivors)
		code = 1
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// processesWith lists live processes (not zombies) whose environment
// holds marker, other than this one.
func processesWith(marker string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		if pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(d + "/environ")
		if err != nil || !bytes.Contains(env, []byte(marker)) {
			continue
		}
		if stat, err := os.ReadFile(d + "/stat"); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}
