package remote_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

// TestMain marks the run (every agent and every process it starts inherits
// the mark), fails it if any of them survived the tests, checks for leaked
// goroutines, and removes the built binaries.
func TestMain(m *testing.M) {
	testharness.RunMarked(m)
}
