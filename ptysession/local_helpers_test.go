package ptysession_test

import (
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
)

// localSessions returns a local facade and a context bounded by HangBound;
// the facade shuts down when the test ends.
func localSessions(t *testing.T) (*ptysession.Sessions, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	s, err := ptysession.NewLocal(ptysession.Options{})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(ctx); cancel() })
	return s, ctx
}
