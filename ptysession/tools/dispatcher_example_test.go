package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// A layer defines a tool with its schemas and handler, and the dispatcher
// checks the arguments before the handler runs.
func ExampleDispatcher_Call() {
	upper := tools.Tool{
		Definition: tools.Definition{
			Name:        "upper",
			Description: "Return text in upper case.",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,
				"required":["text"],"properties":{"text":{"type":"string"}}}`),
		},
		Handler: func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(tools.ProgressUpdate)) (tools.Result, error) {
			var a struct {
				Text string `json:"text"`
			}
			if err := tools.DecodeArgs(args, &a); err != nil {
				return tools.Result{}, err
			}
			u := strings.ToUpper(a.Text)
			return tools.Result{Structured: map[string]string{"text": u}, Text: u}, nil
		},
	}
	d, err := tools.NewDispatcher(tools.Options{}, upper)
	if err != nil {
		panic(err)
	}
	owner := core.NewOwner("agent-1")

	res, err := d.Call(context.Background(), owner, "upper", json.RawMessage(`{"text":"hello"}`), tools.CallOptions{})
	fmt.Println(res.Text, err)

	_, err = d.Call(context.Background(), owner, "upper", json.RawMessage(`{"txt":"hello"}`), tools.CallOptions{})
	var te *tools.ToolError
	if errors.As(err, &te) {
		fmt.Println(te.Code)
		fmt.Println(te.Message)
	}
	// Output:
	// HELLO <nil>
	// INVALID_ARGUMENT
	// field "txt": unknown field (accepted: text)
}

// Bound caps a text for a model and says how much it cut.
func ExampleBound() {
	fmt.Println(tools.Bound(strings.Repeat("x", 100), 40))
	// Output:
	// xxx
	// [... 85 bytes cut ...]
	// xxxxxxxxxxxx
}
