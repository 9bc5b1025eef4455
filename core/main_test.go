package core_test

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/ptyseam/ptyseam/internal/procfs"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestMain gives the tests a private HOME (testenv.PrivateHome), checks
// for leaked goroutines, and for processes that outlived
// the tests: every child inherits a run marker, and no process carrying it
// may remain at the end.
func TestMain(m *testing.M) {
	removeHome := testenv.MustPrivateHome()
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
	removeHome()
	os.Exit(code)
}

// processesWith lists live processes (not zombies) whose environment
// holds the entry marker, other than this one.
func processesWith(marker string) []int {
	all, _ := procfs.ListPIDs()
	var pids []int
	for _, pid := range all {
		if pid != os.Getpid() && procfs.HasEnv(pid, marker) && procfs.Alive(pid, 0) {
			pids = append(pids, pid)
		}
	}
	return pids
}
