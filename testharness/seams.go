package testharness

import (
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// Seam is one implementation of [core.Terminals] a layer above the seam
// (the ptysession facade, its tools) is tested over.
type Seam struct {
	// Name names the seam in subtest names ("service", "registry").
	Name string
	// New returns a fresh seam with the local PTY backends registered; it
	// shuts down when the test ends.
	New func(t *testing.T) core.Terminals
}

// Seams are the real service and the reference registry, both running the
// real local PTY backends: a layer's tests run on each and must pass on
// both.
func Seams() []Seam {
	return []Seam{
		{"service", func(t *testing.T) core.Terminals { return NewLocalService(t, core.Options{}) }},
		{"registry", func(t *testing.T) core.Terminals {
			reg := NewRegistry()
			if err := localpty.Register(reg); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
				defer cancel()
				if err := reg.Shutdown(ctx); err != nil {
					t.Errorf("registry shutdown: %v", err)
				}
			})
			return reg
		}},
	}
}
