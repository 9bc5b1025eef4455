package testharness

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// testInitialOutput: Spawn returns the first prompt, which has no newline,
// and a page shows it at once as the partial last line.
func (ts *termSuite) testInitialOutput(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("initial")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	if res.InitialOutput != "> " || res.Truncated {
		t.Errorf("InitialOutput = %q (truncated %v), want %q", res.InitialOutput, res.Truncated, "> ")
	}
	if res.Status.Exited() || res.ID == "" {
		t.Errorf("SpawnResult = %+v", res.SessionInfo)
	}
	p, err := terms.Read(owner, res.ID, core.PageRequest{Newest: true, Count: 5})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if len(p.Lines) != 1 || p.Lines[0] != "> " || !p.Partial || p.Total != 1 || p.Start != 0 || p.End != 1 {
		t.Errorf("page = %+v, want the partial line %q as line 0 of 1", p, "> ")
	}
}

// testOneLiveSend: a second send fails with SEND_ACTIVE while the first is
// live; reads and signals work meanwhile; Cancel settles the first as
// cancelled with SIGINT to the program; then sends work again.
func (ts *termSuite) testOneLiveSend(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("one-send")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	ctx := testCtx(t)
	long := core.SendRequest{Data: []byte("sleep 1h"), Submit: true, Timeout: 10 * time.Minute, QuietWindow: 10 * time.Minute}
	op, err := terms.Send(ctx, owner, res.ID, long)
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	waitText(t, terms, owner, res.ID, "sleeping")
	_, err = terms.Send(ctx, owner, res.ID, core.SendRequest{Data: []byte("second"), Submit: true})
	wantCode(t, "a second live Send", err, core.CodeSendActive)
	if _, err := terms.Info(owner, res.ID); err != nil {
		t.Errorf("Info during a send: %v", err)
	}
	select {
	case <-op.Done():
		r, _ := op.Wait(ctx)
		t.Fatalf("a send to a sleeping program settled early: %+v", r)
	default:
	}
	if d := op.ReadOutput(); !strings.Contains(d.Text, "sleeping") {
		t.Errorf("ReadOutput during the send = %q, want the program's output so far", d.Text)
	}
	if !op.Cancel() {
		t.Fatalf("Cancel of a live send returned false")
	}
	if op.Cancel() {
		t.Errorf("a second Cancel returned true")
	}
	r, err := op.Wait(ctx)
	if err != nil || r.WaitReason != core.WaitCancelled {
		t.Errorf("cancelled send: %+v, %v; want wait reason cancelled", r, err)
	}
	// SIGINT reached the program, which survives it as a REPL does.
	waitText(t, terms, owner, res.ID, "interrupted")
	r = send(t, terms, owner, res.ID, core.SendRequest{Data: []byte("after cancel"), Submit: true})
	if !strings.Contains(r.Output, "after cancel\nafter cancel\n") || r.Status.Exited() {
		t.Errorf("send after the cancel: %+v", r)
	}
	switch r.WaitReason {
	case core.WaitTimeout, core.WaitCancelled, core.WaitSessionExit:
		t.Errorf("send after the cancel settled with %q", r.WaitReason)
	}
}

// testPromptMarker: a program that marks its prompt (OSC 133;B) settles
// a send on the prompt, with the exact cleaned output and the exit code of
// its OSC 133;D marker.
func (ts *termSuite) testPromptMarker(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("marker")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl", "--marker"))
	if res.InitialOutput != "> " {
		t.Errorf("InitialOutput = %q, want %q", res.InitialOutput, "> ")
	}
	ctx := testCtx(t)
	op, err := terms.Send(ctx, owner, res.ID, core.SendRequest{Data: []byte("hello"), Submit: true, QuietWindow: 10 * time.Minute})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	r, err := op.Wait(ctx)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	const want = "hello\nhello\n> "
	if r.WaitReason != core.WaitPrompt || r.Output != want || r.Truncated || r.Status.Exited() {
		t.Errorf("send result: reason %q output %q truncated %v status %v; want prompt, %q", r.WaitReason, r.Output, r.Truncated, r.Status, want)
	}
	if r.CommandExitCode == nil || *r.CommandExitCode != 0 {
		t.Errorf("CommandExitCode = %v, want 0", r.CommandExitCode)
	}
	if d := op.ReadOutput(); d.Text != want {
		t.Errorf("first ReadOutput = %q, want %q", d.Text, want)
	}
	if d := op.ReadOutput(); d.Text != "" || d.Truncated {
		t.Errorf("second ReadOutput = %+v, want nothing", d)
	}
	if op.Cancel() {
		t.Errorf("Cancel of a settled send returned true")
	}
}

// testPassword: input read with echo off is not in the output.
func (ts *termSuite) testPassword(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("password")
	res := spawn(t, terms, owner, ts.request(t, "password"))
	if res.InitialOutput != "Password: " {
		t.Errorf("InitialOutput = %q, want %q", res.InitialOutput, "Password: ")
	}
	r := send(t, terms, owner, res.ID, core.SendRequest{Data: []byte("hunter2"), Submit: true})
	if strings.Contains(r.Output, "hunter2") || !strings.Contains(r.Output, "got 7 bytes") {
		t.Errorf("output %q: the secret must not echo and the program must count it", r.Output)
	}
	if all := text(t, terms, owner, res.ID); strings.Contains(all, "hunter2") {
		t.Errorf("the scrollback holds the secret: %q", all)
	}
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
		if info.Status != c.want {
			t.Errorf("status = %#v, want %#v", info.Status, c.want)
		}
		if info.TotalLines != 1 {
			t.Errorf("TotalLines = %d, want 1", info.TotalLines)
		}
		if got := text(t, terms, owner, res.ID); got != "exit-with "+c.arg {
			t.Errorf("scrollback = %q, want %q", got, "exit-with "+c.arg)
		}
		_, err := terms.Send(ctx, owner, res.ID, core.SendRequest{Data: []byte("x")})
		wantCode(t, "Send to an exited session", err, core.CodeSessionExited)
		_, err = terms.Signal(ctx, owner, res.ID, core.SignalRequest{Signal: core.SIGINT})
		wantCode(t, "Signal to an exited session", err, core.CodeSessionExited)
		err = terms.Resize(ctx, owner, res.ID, core.Size{Rows: 10, Cols: 10})
		wantCode(t, "Resize of an exited session", err, core.CodeSessionExited)
		if closed, err := terms.Close(ctx, owner, res.ID, "done"); !closed || err != nil {
			t.Errorf("Close of an exited session = %v, %v; want true", closed, err)
		}
	}
}

// testBadRequests: malformed sends, signals and sizes are INVALID_ARGUMENT.
func (ts *termSuite) testBadRequests(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("bad")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	ctx := testCtx(t)
	for name, req := range map[string]core.SendRequest{
		"empty":            {},
		"negative timeout": {Data: []byte("x"), Timeout: -time.Second},
		"negative quiet":   {Data: []byte("x"), QuietWindow: -time.Second},
		"too large":        {Data: make([]byte, 2<<20)},
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
	if r := send(t, terms, owner, res.ID, core.SendRequest{Data: []byte("fine"), Submit: true}); !strings.Contains(r.Output, "fine") {
		t.Errorf("send after bad requests: %+v", r)
	}
}

// testSignalResize: a signal reaches the program; the program sees a
// resize.
func (ts *termSuite) testSignalResize(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("signal")
	ctx := testCtx(t)
	repl := spawn(t, terms, owner, ts.request(t, "echo-repl"))
	sr, err := terms.Signal(ctx, owner, repl.ID, core.SignalRequest{Signal: core.SIGINT})
	if err != nil || !sr.Delivered {
		t.Fatalf("Signal(SIGINT) = %+v, %v", sr, err)
	}
	waitText(t, terms, owner, repl.ID, "interrupted")

	req := ts.request(t, "report-size")
	req.Size = core.Size{Rows: 24, Cols: 80}
	sz := spawn(t, terms, owner, req)
	waitText(t, terms, owner, sz.ID, "size 24 80")
	if err := terms.Resize(ctx, owner, sz.ID, core.Size{Rows: 30, Cols: 100}); err != nil {
		t.Fatalf("Resize: %v", err)
	}
	waitText(t, terms, owner, sz.ID, "size 30 100")
}
