package ptysession

import (
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness/scripted"
)

// scriptedFacade returns a facade over a service whose only backend is a
// scripted terminal following script.
func scriptedFacade(t *testing.T, opts Options, script scripted.Script) (*Sessions, *scripted.Backend) {
	t.Helper()
	return scriptedFacadeOn(t, core.Options{}, opts, script)
}

// scriptedFacadeOn is scriptedFacade over a service with svcOpts.
func scriptedFacadeOn(t *testing.T, svcOpts core.Options, opts Options, script scripted.Script) (*Sessions, *scripted.Backend) {
	t.Helper()
	svcOpts.Logger = quietLogger()
	svc := core.New(svcOpts)
	b, err := scripted.Register(svc, "", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := svc.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	opts.Backend = scripted.Type
	return New(svc, opts), b
}
