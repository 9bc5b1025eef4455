package testharness

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// testIDs: ids are unique, carry at least 96 bits, and are not a sequence.
func (ts *termSuite) testIDs(t *testing.T) {
	terms := ts.h.New(t)
	var ids []string
	seen := map[core.SessionID]bool{}
	for _, owner := range []*core.Owner{core.NewOwner("ids-a"), core.NewOwner("ids-b")} {
		for range 6 {
			req := ts.request(t, "echo-repl")
			req.NoInitialWait = true
			res := spawn(t, terms, owner, req)
			require.NotEmpty(t, res.ID, "a minted id")
			require.False(t, seen[res.ID], "id %q minted twice", res.ID)
			seen[res.ID] = true
			ids = append(ids, string(res.ID))
		}
	}
	bits, why := idEntropy(ids)
	assert.GreaterOrEqual(t, bits, 96.0, "random bits of the ids %q (%s)", ids, why)
}

// idEntropy estimates the random bits of ids: the part after their common
// prefix, at log2(alphabet seen) bits per character, and checks that any
// two ids differ in most positions (a counter differs in one or two).
func idEntropy(ids []string) (float64, string) {
	prefix := ids[0]
	for _, id := range ids[1:] {
		for !strings.HasPrefix(id, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	alphabet := map[rune]bool{}
	shortest := math.MaxInt
	for _, id := range ids {
		rest := id[len(prefix):]
		shortest = min(shortest, len(rest))
		for _, r := range rest {
			alphabet[r] = true
		}
	}
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			a, b := a[len(prefix):], b[len(prefix):]
			if len(a) != len(b) {
				continue
			}
			diff := 0
			for k := range len(a) {
				if a[k] != b[k] {
					diff++
				}
			}
			if diff*2 < len(a) {
				return 0, "ids " + a + " and " + b + " differ in only a few positions"
			}
		}
	}
	if len(alphabet) < 2 {
		return 0, "no variable part"
	}
	return float64(shortest) * math.Log2(float64(len(alphabet))), "estimated"
}

// testForeignOwner: another owner, even one with the same name, is refused
// on every operation and cannot see or dispose the session.
func (ts *termSuite) testForeignOwner(t *testing.T) {
	terms := ts.h.New(t)
	alice := core.NewOwner("alice")
	res := spawn(t, terms, alice, ts.request(t, "echo-repl"))
	ctx := testCtx(t)
	for _, other := range []*core.Owner{core.NewOwner("mallory"), core.NewOwner("alice")} {
		who := "owner " + other.Name()
		_, err := terms.Send(ctx, other, res.ID, core.SendRequest{Data: "x"})
		wantCode(t, who+": Send", err, core.CodeForeignSession)
		_, err = terms.Read(other, res.ID, core.PageRequest{Count: 10})
		wantCode(t, who+": Read", err, core.CodeForeignSession)
		_, err = terms.Signal(ctx, other, res.ID, core.SignalRequest{Signal: core.SIGINT})
		wantCode(t, who+": Signal", err, core.CodeForeignSession)
		err = terms.Resize(ctx, other, res.ID, core.Size{Rows: 10, Cols: 10})
		wantCode(t, who+": Resize", err, core.CodeForeignSession)
		_, err = terms.Info(other, res.ID)
		wantCode(t, who+": Info", err, core.CodeForeignSession)
		closed, err := terms.Close(ctx, other, res.ID, "foreign")
		wantCode(t, who+": Close", err, core.CodeForeignSession)
		assert.False(t, closed, "%s: a foreign Close reported that it closed the session", who)
		list, err := terms.List(other)
		assert.NoError(t, err, "%s: List", who)
		assert.Empty(t, list, "%s: List", who)
		assert.NoError(t, terms.DisposeOwner(ctx, other), "%s: DisposeOwner", who)
	}
	// The session is untouched.
	r := send(t, terms, alice, res.ID, core.SendRequest{Data: "still mine"})
	assert.Contains(t, r.Delta, "still mine", "after foreign calls, the owner's send")
	assert.False(t, r.Status.Exited(), "after foreign calls, the owner's session exited: %+v", r)
	_, err := terms.Close(ctx, alice, res.ID, "done")
	require.NoError(t, err, "Close")
	// A closed session stays foreign to others.
	_, err = terms.Close(ctx, core.NewOwner("mallory"), res.ID, "foreign")
	wantCode(t, "foreign Close of a closed session", err, core.CodeForeignSession)
}

// testNilOwner: a nil owner is an invalid argument everywhere.
func (ts *termSuite) testNilOwner(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("nil-owner")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	ctx := testCtx(t)
	_, err := terms.Spawn(ctx, nil, ts.request(t, "echo-repl"))
	wantCode(t, "Spawn", err, core.CodeInvalidArgument)
	_, err = terms.Send(ctx, nil, res.ID, core.SendRequest{Data: "x", NoSubmit: true})
	wantCode(t, "Send", err, core.CodeInvalidArgument)
	_, err = terms.Read(nil, res.ID, core.PageRequest{})
	wantCode(t, "Read", err, core.CodeInvalidArgument)
	_, err = terms.Signal(ctx, nil, res.ID, core.SignalRequest{Signal: core.SIGINT})
	wantCode(t, "Signal", err, core.CodeInvalidArgument)
	err = terms.Resize(ctx, nil, res.ID, core.Size{Rows: 10, Cols: 10})
	wantCode(t, "Resize", err, core.CodeInvalidArgument)
	_, err = terms.Info(nil, res.ID)
	wantCode(t, "Info", err, core.CodeInvalidArgument)
	_, err = terms.List(nil)
	wantCode(t, "List", err, core.CodeInvalidArgument)
	_, err = terms.Close(ctx, nil, res.ID, "nil")
	wantCode(t, "Close", err, core.CodeInvalidArgument)
	err = terms.DisposeOwner(ctx, nil)
	wantCode(t, "DisposeOwner", err, core.CodeInvalidArgument)
}

// testUnknownID: ids that were never minted are NO_SESSION everywhere.
func (ts *termSuite) testUnknownID(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("unknown")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	ctx := testCtx(t)
	// A guess one character away from a real id.
	last := byte('a')
	if res.ID[len(res.ID)-1] == 'a' {
		last = 'b'
	}
	guess := res.ID[:len(res.ID)-1] + core.SessionID(last)
	for _, id := range []core.SessionID{"", "1", "pty_0", guess} {
		_, err := terms.Send(ctx, owner, id, core.SendRequest{Data: "x", NoSubmit: true})
		wantCode(t, "Send "+string(id), err, core.CodeNoSession)
		_, err = terms.Read(owner, id, core.PageRequest{})
		wantCode(t, "Read "+string(id), err, core.CodeNoSession)
		_, err = terms.Signal(ctx, owner, id, core.SignalRequest{Signal: core.SIGINT})
		wantCode(t, "Signal "+string(id), err, core.CodeNoSession)
		err = terms.Resize(ctx, owner, id, core.Size{Rows: 10, Cols: 10})
		wantCode(t, "Resize "+string(id), err, core.CodeNoSession)
		_, err = terms.Info(owner, id)
		wantCode(t, "Info "+string(id), err, core.CodeNoSession)
		closed, err := terms.Close(ctx, owner, id, "unknown")
		wantCode(t, "Close "+string(id), err, core.CodeNoSession)
		assert.False(t, closed, "Close of unknown id %q reported that it closed a session", id)
	}
}

// testDisposeOwner: disposing closes every session of the owner, kills
// their processes, refuses the owner from then on, and leaves other owners
// alone.
func (ts *termSuite) testDisposeOwner(t *testing.T) {
	terms := ts.h.New(t)
	ctx := testCtx(t)
	doomed, other := core.NewOwner("doomed"), core.NewOwner("other")
	a := spawn(t, terms, doomed, ts.request(t, "ignore-term"))
	waitText(t, terms, doomed, a.ID, "ready")
	b := spawn(t, terms, doomed, ts.request(t, "echo-repl"))
	c := spawn(t, terms, other, ts.request(t, "echo-repl"))
	procs := []trackedProcess{track(a.PID), track(b.PID)}

	require.NoError(t, terms.DisposeOwner(ctx, doomed), "DisposeOwner")
	if ts.h.LocalProcesses {
		for _, p := range procs {
			assert.False(t, p.alive(), "pid %d survived DisposeOwner", p.pid)
		}
	}
	_, err := terms.Spawn(ctx, doomed, ts.request(t, "echo-repl"))
	wantCode(t, "Spawn after dispose", err, core.CodeOwnerDisposed)
	_, err = terms.List(doomed)
	wantCode(t, "List after dispose", err, core.CodeOwnerDisposed)
	for _, id := range []core.SessionID{a.ID, b.ID} {
		_, err = terms.Send(ctx, doomed, id, core.SendRequest{Data: "x", NoSubmit: true})
		wantCode(t, "Send after dispose", err, core.CodeOwnerDisposed)
		_, err = terms.Read(doomed, id, core.PageRequest{})
		wantCode(t, "Read after dispose", err, core.CodeOwnerDisposed)
		_, err = terms.Signal(ctx, doomed, id, core.SignalRequest{Signal: core.SIGINT})
		wantCode(t, "Signal after dispose", err, core.CodeOwnerDisposed)
		err = terms.Resize(ctx, doomed, id, core.Size{Rows: 10, Cols: 10})
		wantCode(t, "Resize after dispose", err, core.CodeOwnerDisposed)
		_, err = terms.Info(doomed, id)
		wantCode(t, "Info after dispose", err, core.CodeOwnerDisposed)
		_, err = terms.Close(ctx, doomed, id, "again")
		wantCode(t, "Close after dispose", err, core.CodeOwnerDisposed)
	}
	assert.NoError(t, terms.DisposeOwner(ctx, doomed), "second DisposeOwner")
	list, err := terms.List(other)
	require.NoError(t, err, "the other owner's List")
	require.Len(t, list, 1, "the other owner's List: its one session")
	assert.Equal(t, c.ID, list[0].ID, "the other owner's session")
	assert.False(t, list[0].Status.Exited(), "the other owner's session is running")
}
