package ptysession

import (
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

// TestMain checks for leaked goroutines and surviving child processes.
func TestMain(m *testing.M) { testharness.VerifyTestMain(m) }
