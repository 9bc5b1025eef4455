package testharness

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// testListOrder: List returns the owner's live sessions in publication
// order with their details; a closed session leaves it.
func (ts *termSuite) testListOrder(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("list")
	list, err := terms.List(owner)
	require.NoError(t, err, "List of a new owner")
	require.Empty(t, list, "List of a new owner")
	ids := map[string]core.SessionID{}
	var typ string
	for _, name := range []string{"first", "second", "third"} {
		req := ts.request(t, "echo-repl")
		req.Name, req.NoInitialWait = name, true
		typ = req.Type
		ids[name] = spawn(t, terms, owner, req).ID
	}
	check := func(names ...string) {
		t.Helper()
		list, err := terms.List(owner)
		require.NoError(t, err, "List")
		type entry struct {
			ID   core.SessionID
			Name string
			Type string
		}
		var want, got []entry
		for _, n := range names {
			want = append(want, entry{ids[n], n, typ})
		}
		for _, info := range list {
			got = append(got, entry{info.ID, info.Name, info.Type})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("List in publication order (-want +got):\n%s", diff)
		}
		for i, info := range list {
			assert.False(t, info.Status.Exited(), "List[%d] is exited: %+v", i, info)
			assert.False(t, info.Created.IsZero(), "List[%d] has no creation time", i)
			if ts.h.LocalProcesses {
				assert.Positive(t, info.PID, "List[%d].PID", i)
			}
			if i > 0 {
				assert.False(t, info.Created.Before(list[i-1].Created), "List[%d] was created before List[%d]", i, i-1)
			}
		}
	}
	check("first", "second", "third")
	_, err = terms.Close(testCtx(t), owner, ids["second"], "list")
	require.NoError(t, err, "Close")
	check("first", "third")
	req := ts.request(t, "echo-repl")
	req.Name, req.NoInitialWait = "second", true
	ids["second"] = spawn(t, terms, owner, req).ID
	check("first", "third", "second")
}

// testDuplicateName: a name is unique among an owner's live sessions,
// also against a spawn in flight, free for other owners, and free again
// after a close.
func (ts *termSuite) testDuplicateName(t *testing.T) {
	terms := ts.h.New(t)
	ctx := testCtx(t)
	owner, other := core.NewOwner("names"), core.NewOwner("names")
	req := ts.request(t, "echo-repl")
	req.Name, req.NoInitialWait = "x", true
	x := spawn(t, terms, owner, req)
	_, err := terms.Spawn(ctx, owner, req)
	wantCode(t, "a second session named x", err, core.CodeDuplicateName)
	spawn(t, terms, other, req)

	// Two spawns of one name at once: exactly one wins.
	req.Name = "y"
	var wg sync.WaitGroup
	var mu sync.Mutex
	var won []core.SessionID
	var codes []core.Code
	for range 2 {
		wg.Go(func() {
			res, err := terms.Spawn(ctx, owner, req)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				won = append(won, res.ID)
			}
			codes = append(codes, core.CodeOf(err))
		})
	}
	wg.Wait()
	for _, id := range won {
		if _, err := terms.Close(ctx, owner, id, "names"); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
	assert.Len(t, won, 1, "concurrent spawns of one name that succeeded")
	assert.Contains(t, codes, core.CodeDuplicateName, "concurrent spawns of one name: want one DUPLICATE_NAME")

	if _, err := terms.Close(ctx, owner, x.ID, "names"); err != nil {
		t.Fatalf("Close: %v", err)
	}
	req.Name = "x"
	spawn(t, terms, owner, req)
}

// testSpawnErrors: malformed spawns fail with their codes and leave
// nothing behind.
func (ts *termSuite) testSpawnErrors(t *testing.T) {
	terms := ts.h.New(t)
	ctx := testCtx(t)
	owner := core.NewOwner("spawn-errors")
	base := ts.request(t, "echo-repl")
	cases := []struct {
		name string
		edit func(r *core.SpawnRequest)
		code core.Code
	}{
		{"unknown type", func(r *core.SpawnRequest) { r.Type = "no-such-backend" }, core.CodeNoBackend},
		{"bad env name", func(r *core.SpawnRequest) { r.Env = []string{"1BAD=x"} }, core.CodeInvalidArgument},
		{"env without =", func(r *core.SpawnRequest) { r.Env = []string{"NOVALUE"} }, core.CodeInvalidArgument},
		{"name with a newline", func(r *core.SpawnRequest) { r.Name = "a\nb" }, core.CodeInvalidArgument},
		{"huge terminal", func(r *core.SpawnRequest) { r.Size = core.Size{Rows: 5000, Cols: 10} }, core.CodeInvalidArgument},
		{"half a size", func(r *core.SpawnRequest) { r.Size = core.Size{Rows: 10} }, core.CodeInvalidArgument},
		{"negative scrollback", func(r *core.SpawnRequest) { r.Scrollback.MaxLines = -1 }, core.CodeInvalidArgument},
		{"NUL in the command", func(r *core.SpawnRequest) { r.Command = append(r.Command, "a\x00b") }, core.CodeInvalidArgument},
	}
	for _, c := range cases {
		req := base
		req.Command = append([]string(nil), base.Command...)
		req.NoInitialWait = true
		c.edit(&req)
		res, err := terms.Spawn(ctx, owner, req)
		wantCode(t, "Spawn with "+c.name, err, c.code)
		if err == nil {
			_, _ = terms.Close(ctx, owner, res.ID, "unexpected")
		}
	}
	list, err := terms.List(owner)
	assert.NoError(t, err, "List after failed spawns")
	assert.Empty(t, list, "List after failed spawns")
	// The names of failed spawns are free.
	req := base
	req.Name, req.Size, req.NoInitialWait = "a\nb", core.Size{Rows: 5000, Cols: 10}, true
	_, _ = terms.Spawn(ctx, owner, req)
	req.Name, req.Size = "retry", core.Size{}
	req.Type = "no-such-backend"
	_, _ = terms.Spawn(ctx, owner, req)
	req.Type = base.Type
	spawn(t, terms, owner, req)
}
