package testharness_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestRegistryConformance holds the reference registry to the seam's
// contract.
func TestRegistryConformance(t *testing.T) {
	testharness.TestTerminals(t, testharness.TerminalsHarness{
		New: func(t *testing.T) core.Terminals {
			r := testharness.NewRegistry(localpty.NewExec(localpty.ExecOptions{}))
			t.Cleanup(func() {
				if err := r.Shutdown(context.Background()); err != nil {
					t.Errorf("Shutdown: %v", err)
				}
			})
			return r
		},
		LocalProcesses: true,
	})
}

// TestServiceConformance holds the real service to the same contract.
func TestServiceConformance(t *testing.T) {
	testharness.TestTerminals(t, testharness.TerminalsHarness{
		New: func(t *testing.T) core.Terminals {
			svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
			if err := localpty.Register(svc); err != nil {
				t.Fatalf("localpty.Register: %v", err)
			}
			t.Cleanup(func() {
				if err := svc.Shutdown(context.Background()); err != nil {
					t.Errorf("Shutdown: %v", err)
				}
			})
			return svc
		},
		LocalProcesses: true,
	})
}
