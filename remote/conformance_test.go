package remote_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestConformancePipe runs the backend conformance suite on the remote
// backend speaking to a real `ptyseam agent` subprocess over two pipes
// (one agent per sub-test). The suite's own pid checks are off (the pids
// are the far side's), so each sub-test also lists the far side's
// processes after its close: none may be left.
func TestConformancePipe(t *testing.T) {
	testharness.TestBackend(t, testharness.BackendHarness{
		New: func(t *testing.T) core.Backend {
			c, _ := connectPipe(t)
			m := &markers{Backend: c.Backend("remote", remote.AgentExec)}
			t.Cleanup(func() {
				if pids := m.FarSide(); len(pids) > 0 {
					t.Errorf("processes left on the far side after the sub-test: %v", pids)
				}
			})
			return m
		},
	})
}

// TestTerminalsPipe runs the seam conformance suite on a core.Service
// whose "exec" type is the remote backend over a pipe.
func TestTerminalsPipe(t *testing.T) {
	testharness.TestTerminals(t, testharness.TerminalsHarness{
		New: func(t *testing.T) core.Terminals {
			c, _ := connectPipe(t)
			m := &markers{Backend: c.Backend("exec", remote.AgentExec)}
			t.Cleanup(func() { // after the service's shutdown
				if pids := m.FarSide(); len(pids) > 0 {
					t.Errorf("processes left on the far side after the sub-test: %v", pids)
				}
			})
			return newService(t, m)
		},
	})
}
