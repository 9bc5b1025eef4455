package testharness

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// testInitialOutput: Spawn returns the first prompt, which has no newline,
// and a page shows it at once as the partial last line.
func (ts *termSuite) testInitialOutput(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("initial")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	assert.Equal(t, "> ", res.InitialOutput, "InitialOutput")
	assert.False(t, res.Truncated, "InitialOutput truncated")
	assert.False(t, res.Status.Exited(), "SpawnResult is exited: %+v", res.SessionInfo)
	assert.NotEmpty(t, res.ID, "SpawnResult.ID")
	wantPage(t, "the partial line as line 0 of 1", terms, owner, res.ID, core.PageRequest{Newest: true, Count: 5},
		core.PageResult{Lines: []string{"> "}, PageSpan: core.PageSpan{Start: 0, End: 1, Total: 1, Partial: true}})
}

// testOneLiveSend: a second send fails with SEND_ACTIVE while the first is
// live; reads and signals work meanwhile; Cancel settles the first as
// cancelled with SIGINT to the program; then sends work again.
func (ts *termSuite) testOneLiveSend(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("one-send")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	ctx := testCtx(t)
	long := core.SendRequest{Data: "sleep 1h", Timeout: 10 * time.Minute, QuietWindow: 10 * time.Minute}
	op, err := terms.Send(ctx, owner, res.ID, long)
	require.NoError(t, err, "Send")
	waitText(t, terms, owner, res.ID, "sleeping")
	_, err = terms.Send(ctx, owner, res.ID, core.SendRequest{Data: "second"})
	wantCode(t, "a second live Send", err, core.CodeSendActive)
	_, err = terms.Info(owner, res.ID)
	assert.NoError(t, err, "Info during a send")
	select {
	case <-op.Done():
		r, _ := op.Wait(ctx)
		t.Fatalf("a send to a sleeping program settled early: %+v", r)
	default:
	}
	assert.Contains(t, op.ReadOutput().Text, "sleeping", "ReadOutput during the send: want the program's output so far")
	require.True(t, op.Cancel(), "Cancel of a live send")
	assert.False(t, op.Cancel(), "a second Cancel")
	r, err := op.Wait(ctx)
	if assert.NoError(t, err, "Wait for the cancelled send") {
		assert.Equal(t, core.WaitCancelled, r.WaitReason, "cancelled send: %+v", r)
	}
	// SIGINT reached the program, which survives it as a REPL does.
	waitText(t, terms, owner, res.ID, "interrupted")
	r = send(t, terms, owner, res.ID, core.SendRequest{Data: "after cancel"})
	assert.Contains(t, r.Delta, "after cancel\nafter cancel\n", "send after the cancel: %+v", r)
	assert.False(t, r.Status.Exited(), "send after the cancel: %+v", r)
	assert.NotContains(t, []core.WaitReason{core.WaitTimeout, core.WaitCancelled, core.WaitSessionExit}, r.WaitReason,
		"send after the cancel settled with %q", r.WaitReason)
}

// testPromptMarker: a program that marks its prompt (OSC 133;B) settles
// a send on the prompt, with the exact cleaned output and the exit code of
// its OSC 133;D marker.
func (ts *termSuite) testPromptMarker(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("marker")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl", "--marker"))
	assert.Equal(t, "> ", res.InitialOutput, "InitialOutput")
	ctx := testCtx(t)
	op, err := terms.Send(ctx, owner, res.ID, core.SendRequest{Data: "hello", QuietWindow: 10 * time.Minute})
	require.NoError(t, err, "Send")
	r, err := op.Wait(ctx)
	require.NoError(t, err, "Wait")
	const want = "hello\nhello\n> "
	type settled struct {
		WaitReason core.WaitReason
		Output     string
		Truncated  bool
		Exited     bool
	}
	if diff := cmp.Diff(settled{core.WaitPrompt, want, false, false}, settled{r.WaitReason, r.Delta, r.Truncated, r.Status.Exited()}); diff != "" {
		t.Errorf("send result (-want +got):\n%s", diff)
	}
	if assert.NotNil(t, r.ExitCode, "CommandExitCode") {
		assert.Equal(t, 0, *r.ExitCode, "CommandExitCode")
	}
	assert.Equal(t, want, op.ReadOutput().Text, "first ReadOutput")
	assert.Equal(t, core.OutputDelta{}, op.ReadOutput(), "second ReadOutput: want nothing")
	assert.False(t, op.Cancel(), "Cancel of a settled send")
}

// testPassword: input read with echo off is not in the output.
func (ts *termSuite) testPassword(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("password")
	res := spawn(t, terms, owner, ts.request(t, "password"))
	assert.Equal(t, "Password: ", res.InitialOutput, "InitialOutput")
	r := send(t, terms, owner, res.ID, core.SendRequest{Data: "hunter2"})
	assert.NotContains(t, r.Delta, "hunter2", "the secret must not echo")
	assert.Contains(t, r.Delta, "got 7 bytes", "the program must count the secret")
	assert.NotContains(t, text(t, terms, owner, res.ID), "hunter2", "the scrollback holds the secret")
}

// testExitedSession: an exited session reports its status, refuses input,
// signals and resizes (SESSION_EXITED), and can still be read and closed.
func (ts *termSuite) testExitedSession(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("exited")
	ctx := testCtx(t)
	for _, c := range []struct {
		arg  string
		want core.Status
	}{{"3", core.ExitedWithCode(3)}, {"SIGTERM", core.ExitedWithSignal("SIGTERM")}} {
		req := ts.request(t, "exit-with", c.arg)
		req.NoInitialWait = true
		res := spawn(t, terms, owner, req)
		info := waitExited(t, terms, owner, res.ID)
		assert.Equal(t, c.want, info.Status, "status")
		assert.EqualValues(t, 1, info.TotalLines, "TotalLines")
		assert.Equal(t, "exit-with "+c.arg, text(t, terms, owner, res.ID), "scrollback")
		_, err := terms.Send(ctx, owner, res.ID, core.SendRequest{Data: "x", NoSubmit: true})
		wantCode(t, "Send to an exited session", err, core.CodeSessionExited)
		_, err = terms.Signal(ctx, owner, res.ID, core.SignalRequest{Signal: core.SIGINT})
		wantCode(t, "Signal to an exited session", err, core.CodeSessionExited)
		err = terms.Resize(ctx, owner, res.ID, core.Size{Rows: 10, Cols: 10})
		wantCode(t, "Resize of an exited session", err, core.CodeSessionExited)
		closed, err := terms.Close(ctx, owner, res.ID, "done")
		assert.NoError(t, err, "Close of an exited session")
		assert.True(t, closed, "Close of an exited session")
	}
}

// testBadRequests: malformed sends, signals and sizes are INVALID_ARGUMENT.
func (ts *termSuite) testBadRequests(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("bad")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	ctx := testCtx(t)
	for name, req := range map[string]core.SendRequest{
		"empty":            {NoSubmit: true},
		"negative timeout": {Data: "x", NoSubmit: true, Timeout: -time.Second},
		"negative quiet":   {Data: "x", NoSubmit: true, QuietWindow: -time.Second},
		"too large":        {Data: strings.Repeat("x", 2<<20), NoSubmit: true},
	} {
		_, err := terms.Send(ctx, owner, res.ID, req)
		wantCode(t, "Send "+name, err, core.CodeInvalidArgument)
	}
	for _, sig := range []core.Signal{"", "SIGFOO", "SIGSEGV", "9"} {
		_, err := terms.Signal(ctx, owner, res.ID, core.SignalRequest{Signal: sig})
		wantCode(t, "Signal "+string(sig), err, core.CodeInvalidArgument)
	}
	for _, size := range []core.Size{{}, {Rows: 0, Cols: 10}, {Rows: 10, Cols: 0}, {Rows: 5000, Cols: 10}} {
		err := terms.Resize(ctx, owner, res.ID, size)
		wantCode(t, "Resize to a bad size", err, core.CodeInvalidArgument)
	}
	// The session is still usable.
	r := send(t, terms, owner, res.ID, core.SendRequest{Data: "fine"})
	assert.Contains(t, r.Delta, "fine", "send after bad requests: %+v", r)
}

// testSignalResize: a signal reaches the program; the program sees a
// resize.
func (ts *termSuite) testSignalResize(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("signal")
	ctx := testCtx(t)
	repl := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	sr, err := terms.Signal(ctx, owner, repl.ID, core.SignalRequest{Signal: core.SIGINT})
	require.NoError(t, err, "Signal(SIGINT)")
	require.True(t, sr.Delivered, "Signal(SIGINT) = %+v", sr)
	waitText(t, terms, owner, repl.ID, "interrupted")

	req := ts.request(t, "report-size")
	req.Size = core.Size{Rows: 24, Cols: 80}
	sz := spawn(t, terms, owner, req)
	waitText(t, terms, owner, sz.ID, "size 24 80")
	require.NoError(t, terms.Resize(ctx, owner, sz.ID, core.Size{Rows: 30, Cols: 100}), "Resize")
	waitText(t, terms, owner, sz.ID, "size 30 100")
}
