package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"go.uber.org/goleak"
)

// runMarker is inherited by every process the tests start.
var runMarker string

func TestMain(m *testing.M) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	os.Setenv("PTYSEAM_TEST_RUN", hex.EncodeToString(b[:]))
	runMarker = "PTYSEAM_TEST_RUN=" + os.Getenv("PTYSEAM_TEST_RUN")
	code := m.Run()
	if left := processesWith(runMarker); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "processes outlived the tests: %s\n", describe(left))
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

// processesWith lists live processes whose environment holds marker,
// other than this one and except.
func processesWith(marker string, except ...int) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		if pid == os.Getpid() || slices.Contains(except, pid) {
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
