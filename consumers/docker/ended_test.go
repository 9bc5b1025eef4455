package docker

import (
	"errors"
	"fmt"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
)

// The engine's refusals of a call on a program that has ended are known
// as such, whatever words the engine chose; other failures are not.
func TestEngineSaysEnded(t *testing.T) {
	for _, c := range []struct {
		err   error
		ended bool
	}{
		{fmt.Errorf("no such exec: %w", cerrdefs.ErrNotFound), true},
		{errors.New("Error response from daemon: container 3b03f609 is not running"), true},
		{errors.New("Error response from daemon: cannot kill stopped container"), true},
		// Seen under load: an exec's resize after the runtime deleted its process.
		{errors.New("Error response from daemon: cannot resize a deleted process: unknown"), true},
		{errors.New("Error response from daemon: bad parameter"), false},
		{errors.New("connection refused"), false},
	} {
		if got := engineSaysEnded(c.err); got != c.ended {
			t.Errorf("engineSaysEnded(%q) = %v, want %v", c.err, got, c.ended)
		}
	}
}
