package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// connectEliciting serves cfg's tools to an in-memory MCP client that
// supports URL-mode elicitation: for each request it plays the person,
// who opens the page and sends what answer returns (the form's body is
// returned too, for what the page shows).
func connectEliciting(t *testing.T, cfg config, answer func(page string) string) *mcp.ClientSession {
	t.Helper()
	ts, err := newToolServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := ts.server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			go personAnswers(t, req.Params.URL, answer)
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		sctx, scancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer scancel()
		if err := ts.shutdown(sctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return cs
}

// personAnswers opens the one-time page at u and sends what answer
// returns for it ("" sends nothing).
func personAnswers(t *testing.T, u string, answer func(page string) string) {
	resp, err := http.Get(u)
	if err != nil {
		t.Errorf("the page: %v", err)
		return
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	secret := answer(string(b))
	if secret == "" {
		return
	}
	resp, err = http.PostForm(u, url.Values{"secret": {secret}})
	if err != nil {
		t.Errorf("sending the secret: %v", err)
		return
	}
	resp.Body.Close()
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// The send after a secret settles as any send does: an installer asks a
// password (given through pty_secret), then YES, then ends; the send of
// YES reports the shell's prompt and the command's exit code.
func TestSendAfterSecretSettlesOnThePrompt(t *testing.T) {
	cs := connectEliciting(t, defaultConfig(t), func(string) string { return "hunter2" })
	opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	id, _ := opened["sessionId"].(string)
	sent, _ := call(t, cs, "pty_send", map[string]any{"id": id,
		"data": `read -rs -p "Password: " pw; echo; read -r -p "Type YES to install: " yes; echo "installed ${#pw} $yes"; (exit 3)`})
	if sent["waitReason"] != "stdin_read" {
		t.Fatalf("the password prompt: %v", sent)
	}
	got, res := call(t, cs, "pty_secret", map[string]any{"id": id, "message": "the installer's password"})
	if res.IsError || got["outcome"] != "entered" {
		t.Fatalf("pty_secret: %s", textOf(res))
	}
	waited, res := call(t, cs, "pty_wait", map[string]any{"conditions": []map[string]any{{"kind": "output", "target": id, "pattern": "Type YES", "fromLine": 0}}, "timeoutMs": 10000})
	if res.IsError {
		t.Fatalf("pty_wait: %s %v", textOf(res), waited)
	}
	sent, res = call(t, cs, "pty_send", map[string]any{"id": id, "data": "YES"})
	if sent["waitReason"] != "prompt" || sent["exitCode"] != float64(3) || !strings.Contains(sent["delta"].(string), "installed 7 YES") {
		t.Fatalf("the send after the secret: %s\n%v", textOf(res), sent)
	}
}
