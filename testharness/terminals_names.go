package testharness

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// testExitedFreesName: a session whose program has exited frees its name
// (it stays listed and readable until closed); closing it later does not
// free the name of the running session that took it.
func (ts *termSuite) testExitedFreesName(t *testing.T) {
	terms := ts.h.New(t)
	ctx := testCtx(t)
	owner := core.NewOwner("names")
	req := ts.request(t, "exit-with", "3")
	req.Name, req.NoInitialWait = "build", true
	old := spawn(t, terms, owner, req)
	waitExited(t, terms, owner, old.ID)

	req = ts.request(t, "echo-repl")
	req.Name, req.NoInitialWait = "build", true
	fresh := spawn(t, terms, owner, req)
	if got := text(t, terms, owner, old.ID); got != "exit-with 3" {
		t.Errorf("the exited session's scrollback = %q after its name was taken", got)
	}
	if _, err := terms.Close(ctx, owner, old.ID, "names"); err != nil {
		t.Fatalf("Close: %v", err)
	}
	_, err := terms.Spawn(ctx, owner, req)
	wantCode(t, "a second running session named build", err, core.CodeDuplicateName)
	list, err := terms.List(owner)
	if err != nil || len(list) != 1 || list[0].ID != fresh.ID || list[0].Name != "build" {
		t.Errorf("List = %+v, %v; want the running session named build", list, err)
	}
}
