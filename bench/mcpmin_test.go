package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/ptysession"
)

// The minimal MCP servers: pty_open, pty_send, pty_list and pty_close
// straight onto the ptysession facade, with none of ptyseam's tool layer
// (no dispatcher, input validation, rendering, bounding, screens or
// profiles). BenchmarkMCPOverhead runs them beside `ptyseam mcp` so that
// its table says which part of a send's cost over a no-op call is the MCP
// library's and which is ptyseam's. The bench binary serves one when
// minimalServerEnv names it: TestMain calls serveMinimal instead of
// running benchmarks.
const (
	// minimalServerEnv names the library: "sdk" (the official Go SDK,
	// github.com/modelcontextprotocol/go-sdk) or "mcpgo"
	// (github.com/mark3labs/mcp-go).
	minimalServerEnv = "PTYSEAM_BENCH_MCP_SERVER"
	// minimalHTTPEnv is the loopback address to serve streamable HTTP on;
	// unset, the server speaks on stdin and stdout.
	minimalHTTPEnv = "PTYSEAM_BENCH_MCP_HTTP"
	// servingHTTP is the line a server prints on stderr once it listens
	// (the same words as `ptyseam mcp --http`).
	servingHTTP = "serving MCP over HTTP"
)

// minimalArgs are the arguments the four tools take.
type minimalArgs struct {
	Command string         `json:"command"`
	ID      core.SessionID `json:"id"`
	Data    string         `json:"data"`
}

// minimalTools calls the facade for one client. Both libraries' handlers
// call it, so the servers differ only in the library.
type minimalTools struct {
	sessions *ptysession.Sessions
	owner    *core.Owner
}

// call runs a tool: the facade's result (the structured content) and the
// one-line text beside it.
func (t minimalTools) call(ctx context.Context, name string, a minimalArgs) (any, string, error) {
	switch name {
	case "pty_open":
		r, err := t.sessions.Open(ctx, t.owner, ptysession.OpenRequest{Command: a.Command})
		return r, "[" + string(r.Status.Kind) + "]", err
	case "pty_send":
		r, err := t.sessions.Send(ctx, t.owner, a.ID, ptysession.SendRequest{Data: a.Data})
		return r, "[" + string(r.WaitReason) + "]", err
	case "pty_list":
		r, err := t.sessions.List(ctx, t.owner)
		return r, fmt.Sprintf("[%d sessions]", len(r.Sessions)), err
	case "pty_close":
		r, err := t.sessions.Close(ctx, t.owner, a.ID)
		return r, "[closed]", err
	}
	return nil, "", fmt.Errorf("unknown tool %q", name)
}

// minimalSchemas are the tools' input schemas.
var minimalSchemas = map[string]string{
	"pty_open":  `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`,
	"pty_send":  `{"type":"object","properties":{"id":{"type":"string"},"data":{"type":"string"}},"required":["id","data"]}`,
	"pty_list":  `{"type":"object","properties":{}}`,
	"pty_close": `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`,
}

// serveMinimal serves the minimal server of library kind on stdio, or on
// HTTP at addr, until the client goes (stdio) or the process is killed,
// and returns the exit code.
func serveMinimal(kind, addr string) int {
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tools := minimalTools{sessions: ptysession.New(svc, ptysession.Options{}), owner: core.NewOwner("bench")}
	var err error
	switch kind {
	case "sdk":
		err = serveSDK(tools, addr)
	case "mcpgo":
		err = serveMCPGo(tools, addr)
	default:
		err = fmt.Errorf("%s: unknown library %q", minimalServerEnv, kind)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = errors.Join(err, tools.sessions.Shutdown(ctx), svc.Shutdown(ctx))
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// serveSDK serves the tools with the official Go SDK, registered as raw
// handlers (as `ptyseam mcp` registers its tools).
func serveSDK(tools minimalTools, addr string) error {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench-sdk", Version: "1"}, nil)
	for name, schema := range minimalSchemas {
		srv.AddTool(&mcp.Tool{Name: name, Description: name, InputSchema: json.RawMessage(schema)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var a minimalArgs
				if len(req.Params.Arguments) > 0 {
					if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
						return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
					}
				}
				res, text, err := tools.call(ctx, name, a)
				if err != nil {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: res}, nil
			})
	}
	if addr == "" {
		return srv.Run(context.Background(), &mcp.StdioTransport{})
	}
	return listenHTTP(addr, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
}

// serveMCPGo serves the tools with github.com/mark3labs/mcp-go.
func serveMCPGo(tools minimalTools, addr string) error {
	srv := mcpgoserver.NewMCPServer("bench-mcpgo", "1", mcpgoserver.WithToolCapabilities(false))
	for name, schema := range minimalSchemas {
		srv.AddTool(mcpgo.NewToolWithRawSchema(name, name, json.RawMessage(schema)),
			func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				a := minimalArgs{Command: req.GetString("command", ""), ID: core.SessionID(req.GetString("id", "")), Data: req.GetString("data", "")}
				res, text, err := tools.call(ctx, name, a)
				if err != nil {
					return mcpgo.NewToolResultError(err.Error()), nil
				}
				return mcpgo.NewToolResultStructured(res, text), nil
			})
	}
	if addr == "" {
		return mcpgoserver.NewStdioServer(srv).Listen(context.Background(), os.Stdin, os.Stdout)
	}
	return listenHTTP(addr, mcpgoserver.NewStreamableHTTPServer(srv))
}

// listenHTTP serves h on addr, saying so on stderr once it listens.
func listenHTTP(addr string, h http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, servingHTTP)
	return (&http.Server{Handler: h, ReadHeaderTimeout: time.Minute}).Serve(ln)
}

// minimalCommand is the command that serves the minimal server of library
// kind: this bench binary again, on stdio or at addr.
func minimalCommand(kind, addr string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), minimalServerEnv+"="+kind, minimalHTTPEnv+"="+addr)
	return cmd, nil
}
