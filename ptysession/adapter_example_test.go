package ptysession_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/ptyseam/ptyseam/ptysession"
)

// Adapter gives a model four tools over terminals it names; each call's
// text is what the MCP server's pty tools return for the same result.
type Adapter struct{ Agent *ptysession.Agent }

// AdapterTool is a tool's definition as a toolkit hands it to the model.
type AdapterTool struct {
	Name, Description string
	InputSchema       map[string]any
}

// Tools lists the tools, for the model: each takes the terminal's name.
func (ad Adapter) Tools() []AdapterTool {
	str := map[string]any{"type": "string"}
	schema := func(required ...string) map[string]any {
		return map[string]any{"type": "object", "required": required, "properties": map[string]any{"name": str, "command": str, "data": str}}
	}
	return []AdapterTool{
		{"terminal_open", "Open a shell terminal called name and type command into it; an open one is kept.", schema("name")},
		{"terminal_send", "Type data and Enter into the terminal called name; returns what it printed.", schema("name", "data")},
		{"terminal_read", "Return what the terminal called name printed that you have not seen yet.", schema("name")},
		{"terminal_close", "Close the terminal called name.", schema("name")},
	}
}

// Call runs a tool call on its JSON input and returns the text for the model.
func (ad Adapter) Call(ctx context.Context, tool string, input json.RawMessage) (string, error) {
	var in struct{ Name, Command, Data string }
	if err := json.Unmarshal(input, &in); err != nil {
		return "", err
	}
	t := ad.Agent.Terminal(in.Name)
	switch tool {
	case "terminal_open":
		r, _, err := t.Open(ctx, ptysession.OpenRequest{Command: in.Command})
		return text(r, err, ptysession.RenderOpen)
	case "terminal_send":
		r, err := t.Send(ctx, ptysession.SendRequest{Data: in.Data, OmitEcho: true, OmitPrompt: true})
		return text(r, err, ptysession.RenderSend)
	case "terminal_read":
		r, err := t.Tail(ctx, 0)
		return text(r, err, ptysession.RenderTail)
	case "terminal_close":
		r, err := t.Close(ctx)
		return text(r, err, func(r ptysession.CloseResult) string { return ptysession.RenderClose(in.Name, r) })
	}
	return "", fmt.Errorf("unknown tool %q", tool)
}

// text renders a result, or passes an error on (the toolkit reports its text).
func text[R any](r R, err error, render func(R) string) (string, error) {
	if err != nil {
		return "", err
	}
	return render(r), nil
}

// A toolkit adapter: four tools that address terminals by name and return
// the pty tools' texts.
func Example_adapter() {
	ctx := context.Background()
	s, err := ptysession.NewLocal(ptysession.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Shutdown(ctx)
	ad := Adapter{Agent: s.NewAgent("agent-1")}
	for _, tool := range ad.Tools() {
		fmt.Println(tool.Name, tool.InputSchema["required"])
	}
	ids := regexp.MustCompile(`pty_\w+|pid \d+`)
	for _, call := range []struct{ tool, input string }{
		{"terminal_open", `{"name": "build", "command": "X=6"}`},
		{"terminal_send", `{"name": "build", "data": "echo $((X*7))"}`},
		{"terminal_read", `{"name": "build"}`},
		{"terminal_close", `{"name": "build"}`},
		{"terminal_send", `{"name": "build", "data": "ls"}`},
	} {
		out, err := ad.Call(ctx, call.tool, json.RawMessage(call.input))
		if err != nil {
			out = "error: " + err.Error()
		}
		if call.tool == "terminal_open" {
			out = strings.SplitN(out, "\n", 2)[0] // the shell's banner and prompt follow
		}
		fmt.Printf("%s: %q\n", call.tool, ids.ReplaceAllString(out, "…"))
	}
	// Output:
	// terminal_open [name]
	// terminal_send [name data]
	// terminal_read [name]
	// terminal_close [name]
	// terminal_open: "[session … opened, …; settled: prompt; command exit code 0]"
	// terminal_send: "[prompt; command exit code 0]\n42\n"
	// terminal_read: "[no new output]"
	// terminal_close: "session build closed"
	// terminal_send: "error: send: NO_SESSION: the owner has no session named \"build\": open it first (Terminal.Open)"
}
