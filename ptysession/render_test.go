package ptysession_test

import (
	"encoding/json"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// TestRenderersAreTheToolsText: an adapter that calls the facade and
// renders with the exported renderers returns to its model the very text
// the pty tools return for the same result (the MCP server's text).
func TestRenderersAreTheToolsText(t *testing.T) {
	s, ctx := localSessions(t)
	d, err := tools.NewDispatcher(tools.Options{}, ptytools.Tools(s)...)
	if err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("adapter")
	call := func(tool, args string) tools.Result {
		t.Helper()
		res, err := d.Call(ctx, owner, tool, json.RawMessage(args), tools.CallOptions{})
		if err != nil {
			t.Fatalf("%s %s: %v", tool, args, err)
		}
		return res
	}
	check := func(tool string, res tools.Result, rendered string) {
		t.Helper()
		if res.Text != rendered {
			t.Fatalf("%s: the tool's text\n%q\nis not the exported renderer's\n%q", tool, res.Text, rendered)
		}
	}

	opened := call(ptytools.ToolOpen, `{"command":"X=6"}`)
	or := opened.Structured.(ptysession.OpenResult)
	check(ptytools.ToolOpen, opened, ptysession.RenderOpen(or))
	id := string(or.SessionID)

	sent := call(ptytools.ToolSend, `{"id":"`+id+`","data":"echo $((X*7)); (exit 3)"}`)
	sr := sent.Structured.(ptysession.SendResult)
	check(ptytools.ToolSend, sent, ptysession.RenderSend(sr))
	if sr.WaitReason != core.WaitPrompt || sr.ExitCode == nil {
		t.Logf("the send settled %s (load): the texts still agree", sr.WaitReason)
	}
	busy := call(ptytools.ToolSend, `{"id":"`+id+`","data":"sleep 5","quietMs":200,"timeoutMs":400}`)
	check(ptytools.ToolSend, busy, ptysession.RenderSend(busy.Structured.(ptysession.SendResult)))
	sig := call(ptytools.ToolSignal, `{"id":"`+id+`","signal":"SIGINT"}`)
	check(ptytools.ToolSignal, sig, ptysession.RenderSignal(id, sig.Structured.(ptysession.SignalResult)))

	tail := call(ptytools.ToolTail, `{"id":"`+id+`"}`)
	check(ptytools.ToolTail, tail, ptysession.RenderTail(tail.Structured.(ptysession.TailResult)))
	read := call(ptytools.ToolRead, `{"id":"`+id+`","start":0,"lines":3}`)
	check(ptytools.ToolRead, read, ptysession.RenderRead(read.Structured.(ptysession.ReadResult)))
	list := call(ptytools.ToolList, `{}`)
	check(ptytools.ToolList, list, ptysession.RenderList(list.Structured.(ptysession.ListResult)))
	closed := call(ptytools.ToolClose, `{"id":"`+id+`"}`)
	check(ptytools.ToolClose, closed, ptysession.RenderClose(id, closed.Structured.(ptysession.CloseResult)))
}
