package openssh_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

// TestMain checks for leaked goroutines and removes what the process
// made in the shared temporary directory (sshdtest.ProcessCacheDir).
func TestMain(m *testing.M) { testharness.VerifyTestMain(m) }
