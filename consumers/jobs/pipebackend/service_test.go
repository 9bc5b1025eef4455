//go:build unix

package pipebackend

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestThroughService drives the backend the way the jobs layer does:
// through a core.Service.
func TestThroughService(t *testing.T) {
	svc := core.New(core.Options{})
	defer svc.Shutdown(context.Background())
	if _, err := Register(svc); err != nil {
		t.Fatal(err)
	}
	if _, err := Register(svc); !errors.Is(err, core.ErrDuplicateBackend) {
		t.Fatalf("second register: %v", err)
	}
	owner := core.NewOwner("test")
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	res, err := svc.Spawn(ctx, owner, core.SpawnRequest{
		Type:          Type,
		Command:       []string{"sh", "-c", `read line; echo "got $line"; echo bye >&2; exit 4`},
		NoInitialWait: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Write(ctx, owner, res.ID, []byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	st, err := svc.Wait(ctx, owner, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st != core.ExitedWithCode(4) {
		t.Fatalf("status %v", st)
	}
	page, err := svc.Read(owner, res.ID, core.PageRequest{Start: 0, Count: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(page.Lines, "|"); got != "got ping|bye" {
		t.Fatalf("lines %q", got)
	}
	if _, err := svc.Close(ctx, owner, res.ID, "test done"); err != nil {
		t.Fatal(err)
	}
}
