package ptytools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

func newService() *core.Service {
	svc := core.New(core.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := localpty.Register(svc); err != nil {
		panic(err)
	}
	return svc
}

// A model's tool calls go through a dispatcher holding the pty tools.
func ExampleTools() {
	ctx := context.Background()
	svc := newService()
	defer svc.Shutdown(ctx)
	s := ptysession.New(svc, ptysession.Options{Backend: "exec"})
	d, err := tools.NewDispatcher(tools.Options{}, ptytools.Tools(s)...)
	if err != nil {
		panic(err)
	}
	owner := core.NewOwner("model-1")

	res, err := d.Call(ctx, owner, "pty_open", json.RawMessage(`{"command":"cat"}`), tools.CallOptions{})
	if err != nil {
		panic(err)
	}
	id := res.Structured.(ptysession.OpenResult).SessionID

	res, _ = d.Call(ctx, owner, "pty_send", json.RawMessage(`{"id":"`+string(id)+`","data":"ping"}`), tools.CallOptions{})
	fmt.Print(res.Text)

	_, err = d.Call(ctx, owner, "pty_tail", json.RawMessage(`{"id":"`+string(id)+`","lines":-5}`), tools.CallOptions{})
	fmt.Println(err.(*tools.ToolError).Text())

	_, err = d.Call(ctx, core.NewOwner("model-2"), "pty_close", json.RawMessage(`{"id":"`+string(id)+`"}`), tools.CallOptions{})
	fmt.Println(err.(*tools.ToolError).Code)

	res, _ = d.Call(ctx, owner, "pty_close", json.RawMessage(`{"id":"`+string(id)+`"}`), tools.CallOptions{})
	fmt.Println(res.Structured.(ptysession.CloseResult).Closed)
	// Output:
	// [stdin_read]
	// ping
	// ping
	// INVALID_ARGUMENT: field "lines": must be at least 0, got -5
	// Next: Fix the named argument and call the tool again.
	// FOREIGN_SESSION
	// true
}
