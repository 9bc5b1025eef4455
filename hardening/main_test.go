package hardening

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
)

// runMarker is inherited by every process these tests start.
var runMarker string

func TestMain(m *testing.M) {
	runMarker = testharness.MarkRun()
	testharness.RunMarked(m)
}

// soak reports whether the long runs were asked for.
func soak() bool { return os.Getenv("PTYSEAM_SOAK") != "" }

// rounds returns n for soak runs and short otherwise.
func rounds(short, n int) int {
	if soak() {
		return n
	}
	return short
}

// survivors lists live processes carrying this run's marker.
func survivors() []int { return testharness.Survivors(runMarker) }

// requireNoSurvivors fails the test if any process of this run is alive.
func requireNoSurvivors(t *testing.T, what string) {
	t.Helper()
	if left := survivors(); len(left) > 0 {
		t.Fatalf("%s: %d processes survived: %v", what, len(left), left)
	}
}

func newService(t testing.TB, opts core.Options) *core.Service {
	t.Helper()
	return testharness.NewLocalService(t, opts)
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// spawnSession spawns a session and closes it when the test ends, failing
// the test if the close fails.
func spawnSession(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner, req core.SpawnRequest) core.SpawnResult {
	t.Helper()
	s, err := svc.Spawn(ctx, owner, req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := svc.Close(context.Background(), owner, s.ID, "test done"); err != nil {
			t.Error(err)
		}
	})
	return s
}

// awaitOutput reads tap until its output holds want, failing the test if
// the output ends or ctx ends first.
func awaitOutput(t *testing.T, ctx context.Context, tap *core.Tap, want string) {
	t.Helper()
	var seen []byte
	for !bytes.Contains(seen, []byte(want)) {
		b, err := tap.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %q: %v; the output was %q", want, err, seen)
		}
		seen = append(seen, b...)
	}
}

// sendWait sends and waits for the send to settle, failing the test on an
// error.
func sendWait(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner, id core.SessionID, req core.SendRequest) core.SendResult {
	t.Helper()
	op, err := svc.Send(ctx, owner, id, req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
