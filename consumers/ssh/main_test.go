package ssh

import (
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

// TestMain checks for leaked goroutines and removes the conformance
// suite's children binary, failing if any of its processes survived.
func TestMain(m *testing.M) { testharness.VerifyTestMain(m) }
