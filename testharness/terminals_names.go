package testharness

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	assert.Equal(t, "exit-with 3", text(t, terms, owner, old.ID), "the exited session's scrollback after its name was taken")
	_, err := terms.Close(ctx, owner, old.ID, "names")
	require.NoError(t, err, "Close")
	_, err = terms.Spawn(ctx, owner, req)
	wantCode(t, "a second running session named build", err, core.CodeDuplicateName)
	list, err := terms.List(owner)
	if assert.NoError(t, err, "List") {
		type entry struct {
			ID   core.SessionID
			Name string
		}
		var got []entry
		for _, info := range list {
			got = append(got, entry{info.ID, info.Name})
		}
		want := []entry{{fresh.ID, "build"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("List: want the running session named build (-want +got):\n%s", diff)
		}
	}
}
