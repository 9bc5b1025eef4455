package hardening

import (
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// sshBadInputs returns the ssh layer's malformed inputs.
func sshBadInputs(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner) []badCase {
	return nil
}
