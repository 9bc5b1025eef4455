package testharness

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// TerminalsHarness says how [TestTerminals] runs a seam implementation.
type TerminalsHarness struct {
	// New returns a fresh seam under test with default options, able to
	// run the request Request builds. It is called once per sub-test and
	// must register the seam's shutdown with t.Cleanup.
	New func(t *testing.T) core.Terminals
	// Request returns the spawn request that runs argv (the children
	// binary and its arguments). Nil: core.SpawnRequest{Type: "exec",
	// Command: argv}. The suite sets Name, Size, Scrollback and
	// NoInitialWait on the result.
	Request func(argv []string) core.SpawnRequest
	// Children is the path of the children binary as the seam's programs
	// see it; empty means [BuildChildren].
	Children string
	// LocalProcesses says that session pids are pids of this machine, so
	// that the suite can check they are gone after a close.
	LocalProcesses bool
}

// TestTerminals is the conformance suite of a [core.Terminals]
// implementation (the real service, the testharness Registry, a remote
// proxy): ids unique and unguessable, every operation refused to a foreign
// owner (FOREIGN_SESSION, also for a same-name owner), to a nil owner and
// for unknown ids, one live send (SEND_ACTIVE) with reads and signals
// allowed meanwhile, send settlement on a prompt marker with the exact
// cleaned output, a password read with echo off, idempotent Close (true
// then false) whose concurrent calls share one teardown, closed sessions
// refusing everything with NO_SESSION, pages by absolute line numbers
// (also after old lines were dropped, with exact First, Truncated and
// Dropped) and a cursor that reads them as a tail does, DisposeOwner
// closing everything and refusing the owner (OWNER_DISPOSED), List in
// publication order, names unique per owner (DUPLICATE_NAME), and bad
// requests refused (INVALID_ARGUMENT, NO_BACKEND).
func TestTerminals(t *testing.T, h TerminalsHarness) {
	ts := &termSuite{h: h}
	t.Run("IDs", ts.testIDs)
	t.Run("ForeignOwner", ts.testForeignOwner)
	t.Run("NilOwner", ts.testNilOwner)
	t.Run("UnknownID", ts.testUnknownID)
	t.Run("InitialOutput", ts.testInitialOutput)
	t.Run("OneLiveSend", ts.testOneLiveSend)
	t.Run("Tail", ts.testTail)
	t.Run("QueuedSend", ts.testQueuedSend)
	t.Run("PromptMarker", ts.testPromptMarker)
	t.Run("PasswordEchoOff", ts.testPassword)
	t.Run("ExitedSession", ts.testExitedSession)
	t.Run("BadRequests", ts.testBadRequests)
	t.Run("SignalAndResize", ts.testSignalResize)
	t.Run("CloseIdempotent", ts.testCloseIdempotent)
	t.Run("ConcurrentClose", ts.testConcurrentClose)
	t.Run("CloseKillsTree", ts.testCloseKillsTree)
	t.Run("Pages", ts.testPages)
	t.Run("PagesAfterDrop", ts.testPagesAfterDrop)
	t.Run("PageSizes", ts.testPageSizes)
	t.Run("DisposeOwner", ts.testDisposeOwner)
	t.Run("ListOrder", ts.testListOrder)
	t.Run("DuplicateName", ts.testDuplicateName)
	t.Run("ExitedFreesName", ts.testExitedFreesName)
	t.Run("SpawnErrors", ts.testSpawnErrors)
}

type termSuite struct {
	h TerminalsHarness
}

// request builds the spawn request of a child program.
func (ts *termSuite) request(t *testing.T, args ...string) core.SpawnRequest {
	bin := ts.h.Children
	if bin == "" {
		bin = BuildChildren(t)
	}
	argv := append([]string{bin}, args...)
	if ts.h.Request != nil {
		return ts.h.Request(argv)
	}
	return core.SpawnRequest{Type: "exec", Command: argv}
}

// spawn starts a session and closes it at the end of the test.
func spawn(t *testing.T, terms core.Terminals, owner *core.Owner, req core.SpawnRequest) core.SpawnResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	res, err := terms.Spawn(ctx, owner, req)
	require.NoError(t, err, "Spawn(%q)", req.Command)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
		defer cancel()
		_, err := terms.Close(ctx, owner, res.ID, "test cleanup")
		if err != nil && !errors.Is(err, core.ErrNoSession) && !errors.Is(err, core.ErrOwnerDisposed) {
			t.Errorf("Close at cleanup: %v", err)
		}
	})
	return res
}

// wantCode fails the test unless err carries code.
func wantCode(t *testing.T, what string, err error, code core.Code) {
	t.Helper()
	assert.Equal(t, code, core.CodeOf(err), "%s: error %v", what, err)
}

// text returns the retained scrollback as lines joined by "\n".
func text(t *testing.T, terms core.Terminals, owner *core.Owner, id core.SessionID) string {
	t.Helper()
	p, err := terms.Read(owner, id, core.PageRequest{Newest: true, Count: core.MaxPageLinesLimit})
	require.NoError(t, err, "Read")
	return strings.Join(p.Lines, "\n")
}

// waitText waits until the scrollback contains s.
func waitText(t *testing.T, terms core.Terminals, owner *core.Owner, id core.SessionID, s string) string {
	t.Helper()
	deadline := time.Now().Add(suiteTimeout)
	for {
		got := text(t, terms, owner, id)
		if strings.Contains(got, s) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the scrollback never contained %q; it holds %q", s, tail(got, 400))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitExited waits until Info reports the program exited.
func waitExited(t *testing.T, terms core.Terminals, owner *core.Owner, id core.SessionID) core.SessionInfo {
	t.Helper()
	deadline := time.Now().Add(suiteTimeout)
	for {
		info, err := terms.Info(owner, id)
		require.NoError(t, err, "Info")
		if info.Status.Exited() {
			return info
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session never exited")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// send sends and waits for settlement.
func send(t *testing.T, terms core.Terminals, owner *core.Owner, id core.SessionID, req core.SendRequest) core.SendResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	op, err := terms.Send(ctx, owner, id, req)
	require.NoError(t, err, "Send(%q)", req.Data)
	res, err := op.Wait(ctx)
	require.NoError(t, err, "Wait for Send(%q)", req.Data)
	return res
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	t.Cleanup(cancel)
	return ctx
}
