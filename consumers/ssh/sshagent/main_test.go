package sshagent_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

// TestMain marks the run, fails it if a marked process survived, checks
// for leaked goroutines and removes the built binaries.
func TestMain(m *testing.M) {
	testharness.RunMarked(m)
}
