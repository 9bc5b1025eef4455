package testharness_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestLocalPTYExecBackend runs the backend conformance suite against the
// local PTY backend's exec type.
func TestLocalPTYExecBackend(t *testing.T) {
	testharness.TestBackend(t, testharness.BackendHarness{
		New:            func(*testing.T) core.Backend { return localpty.NewExec(localpty.ExecOptions{}) },
		LocalProcesses: true,
	})
}
