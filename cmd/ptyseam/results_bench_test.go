package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkResultBytes measures what a client receives per byte of
// payload (the output of a send, the rows of a screen), in both result
// forms, and the size of the tool list; scripts/bench.sh puts the figures
// in the performance table. The payload is 300 lines of prose (the GPL's
// first 15 KB) and a 40x160 screen of less showing it.
func BenchmarkResultBytes(b *testing.B) {
	for _, form := range []string{"structured", "text"} {
		b.Run(form, func(b *testing.B) {
			var args []string
			if form == "structured" {
				args = append(args, "--structured-results")
			}
			cfg, err := parseConfig(args, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			cs := benchConnect(b, cfg)
			ctx := context.Background()
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			listJSON, _ := json.Marshal(list.Tools)
			var sendRatio, screenRatio float64
			for i := 0; i < b.N; i++ {
				sendRatio = benchRatio(b, cs, "pty_send")
				screenRatio = benchRatio(b, cs, "pty_screen")
			}
			b.ReportMetric(sendRatio, "send-result-B/payload-B")
			b.ReportMetric(screenRatio, "screen-result-B/payload-B")
			b.ReportMetric(float64(len(listJSON)), "tool-list-B")
		})
	}
}

// benchRatio opens a session, makes one result of the named tool and
// returns its bytes (content and structured content, as JSON) per payload
// byte.
func benchRatio(b *testing.B, cs *mcp.ClientSession, tool string) float64 {
	b.Helper()
	file := "/usr/share/common-licenses/GPL-3"
	cmd := "bash"
	if tool == "pty_screen" {
		cmd = "less " + file
	}
	opened := benchCall(b, cs, "pty_open", map[string]any{"command": cmd})
	id := sessionOf(b, opened)
	defer benchCall(b, cs, "pty_close", map[string]any{"id": id})
	var res *mcp.CallToolResult
	var payload int
	if tool == "pty_send" {
		res = benchCall(b, cs, "pty_send", map[string]any{"id": id, "data": "head -300 " + file})
	} else {
		res = benchCall(b, cs, "pty_screen", map[string]any{"id": id})
	}
	text := res.Content[0].(*mcp.TextContent).Text
	switch m, _ := res.StructuredContent.(map[string]any); {
	case m == nil: // text form: the rendering after its headline
		for i := range text {
			if text[i] == '\n' {
				payload = len(text) - i - 1
				break
			}
		}
	case tool == "pty_send":
		payload = len(m["delta"].(string))
	default:
		for i, r := range m["rows"].([]any) {
			if i > 0 {
				payload++
			}
			payload += len(r.(string))
		}
	}
	content, _ := json.Marshal(res.Content)
	total := len(content)
	if res.StructuredContent != nil {
		sc, _ := json.Marshal(res.StructuredContent)
		total += len(sc)
	}
	if payload == 0 {
		b.Fatalf("%s returned no payload: %s", tool, text)
	}
	return float64(total) / float64(payload)
}

func sessionOf(b *testing.B, res *mcp.CallToolResult) string {
	b.Helper()
	if m, ok := res.StructuredContent.(map[string]any); ok {
		return m["sessionId"].(string)
	}
	var id string
	text := res.Content[0].(*mcp.TextContent).Text
	for _, w := range splitWords(text) {
		if len(w) > 4 && w[:4] == "pty_" {
			id = w
			break
		}
	}
	if id == "" {
		b.Fatalf("no session id in %q", text)
	}
	return id
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == ',' || s[i] == '\n' || s[i] == '[' || s[i] == ']' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

func benchCall(b *testing.B, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	b.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		b.Fatalf("%s: %v", name, res.Content[0].(*mcp.TextContent).Text)
	}
	return res
}

// benchConnect serves cfg's tools to an in-memory MCP client.
func benchConnect(b testing.TB, cfg config) *mcp.ClientSession {
	b.Helper()
	ts, err := newToolServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	b.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := ts.server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		sctx, scancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer scancel()
		if err := ts.shutdown(sctx); err != nil {
			b.Errorf("shutdown: %v", err)
		}
	})
	return cs
}
