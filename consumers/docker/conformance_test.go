package docker

import (
	"path/filepath"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestConformanceContainer runs the testharness backend suite with each
// session in a new container on a real dockerd.
func TestConformanceContainer(t *testing.T) {
	t.Parallel()
	b, d := newBackend(t)
	tg, bin := childrenTarget(t, d)
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New:      func(t *testing.T) core.Backend { return targetBackend{b: b, t: tg} },
	})
}

// TestConformanceExec runs the same suite with each session an exec in
// one running container.
func TestConformanceExec(t *testing.T) {
	t.Parallel()
	b, d := newBackend(t)
	bin := testharness.BuildChildren(t)
	id := runContainer(t, d, Mount{Source: filepath.Dir(bin), Target: filepath.Dir(bin), ReadOnly: true})
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New:      func(t *testing.T) core.Backend { return targetBackend{b: b, t: &Target{Container: id}} },
	})
}
