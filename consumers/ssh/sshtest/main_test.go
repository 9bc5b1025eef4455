package sshtest_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

// TestMain gives the tests a private HOME (the programs they start keep
// their histories there) and checks for leaked goroutines.
func TestMain(m *testing.M) { testharness.VerifyTestMain(m) }
