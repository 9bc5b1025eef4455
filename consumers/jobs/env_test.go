//go:build unix

package jobs

import (
	"context"
	"errors"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestLaunchRefusesBadEnvNames: an env name with "=" (or any character a
// variable name cannot hold) is refused, as pty_open refuses it, instead
// of being joined into NAME=VALUE ({"A=B":"x"} would set A to "B=x").
func TestLaunchRefusesBadEnvNames(t *testing.T) {
	f := newFixture(t, Config{})
	for _, env := range []map[string]string{
		{"A=B": "x"}, {"": "x"}, {"1A": "x"}, {"A B": "x"}, {"A": "x\x00y"},
	} {
		_, err := f.m.Launch(context.Background(), f.owner, LaunchRequest{Command: "true", Env: env})
		var ce *core.Error
		if !errors.As(err, &ce) || ce.Code != core.CodeInvalidArgument {
			t.Errorf("env %q: %v, want INVALID_ARGUMENT", env, err)
		}
	}
	info := f.launch(t, LaunchRequest{Command: "sh", Args: []string{"-c", "echo A=$A"}, Env: map[string]string{"A": "B=x"}})
	f.waitOutput(t, info.ID, "A=B=x")
}
