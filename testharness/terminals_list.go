package testharness

import (
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// testListOrder: List returns the owner's live sessions in publication
// order with their details; a closed session leaves it.
func (ts *termSuite) testListOrder(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("list")
	if list, err := terms.List(owner); err != nil || len(list) != 0 {
		t.Fatalf("List of a new owner = %+v, %v; want empty", list, err)
	}
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
		if err != nil {
			t.Fatalf("List: %v", err)
		}
		if len(list) != len(names) {
			t.Fatalf("List has %d sessions, want %v", len(list), names)
		}
		for i, info := range list {
			if info.ID != ids[names[i]] || info.Name != names[i] {
				t.Errorf("List[%d] = %s %q, want %s %q", i, info.ID, info.Name, ids[names[i]], names[i])
			}
			if info.Type != typ || info.Status.Exited() || info.Created.IsZero() || (ts.h.LocalProcesses && info.PID <= 0) {
				t.Errorf("List[%d] = %+v", i, info)
			}
			if i > 0 && info.Created.Before(list[i-1].Created) {
				t.Errorf("List[%d] was created before List[%d]", i, i-1)
			}
		}
	}
	check("first", "second", "third")
	if _, err := terms.Close(testCtx(t), owner, ids["second"], "list"); err != nil {
		t.Fatalf("Close: %v", err)
	}
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
	if len(won) != 1 || !(codes[0] == core.CodeDuplicateName || codes[1] == core.CodeDuplicateName) {
		t.Errorf("concurrent spawns of one name: codes %q; want one success and one DUPLICATE_NAME", codes)
	}

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
	if list, err := terms.List(owner); err != nil || len(list) != 0 {
		t.Errorf("List after failed spawns = %+v, %v; want empty", list, err)
	}
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
