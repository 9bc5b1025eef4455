package testharness

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// RunMarkerEnv is the environment variable [MarkRun] sets; every process a
// test starts inherits it.
const RunMarkerEnv = "PTYSEAM_TEST_RUN"

// MarkRun tags this test process, and through the environment every
// process it starts, with a random marker (the same one for the whole test
// binary), and returns the "NAME=VALUE" entry to look for with
// [Survivors].
func MarkRun() string {
	markOnce.Do(func() {
		var b [8]byte
		_, _ = rand.Read(b[:])
		v := hex.EncodeToString(b[:])
		os.Setenv(RunMarkerEnv, v)
		runMarker = RunMarkerEnv + "=" + v
	})
	return runMarker
}

var (
	markOnce  sync.Once
	runMarker string
)

// Survivors lists live processes (zombies count as gone), other than this
// one and except, whose environment holds marker. It works where /proc
// does (Linux) and finds nothing elsewhere.
func Survivors(marker string, except ...int) []int { return testenv.Survivors(marker, except...) }

// RunMarked is a TestMain for packages whose tests start processes: it
// gives the process a private HOME (testenv.PrivateHome), marks the run, runs
// the tests, fails the run if any process carrying
// the marker survived them (and kills those, so that a failed run leaves
// nothing behind either), and checks for leaked goroutines (goleak).
//
//	func TestMain(m *testing.M) { testharness.RunMarked(m) }
func RunMarked(m *testing.M, opts ...goleak.Option) {
	mustPrivateHome()
	marker := MarkRun()
	code := m.Run()
	if reportSurvivors(os.Stderr, marker) {
		code = 1
	}
	if code == 0 {
		if err := goleak.Find(opts...); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	if err := Cleanup(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = max(code, 1)
	}
	os.Exit(code)
}
