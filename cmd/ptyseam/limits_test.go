package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// serveHTTPForTest runs serveHTTP on a loopback port and returns its URL.
func serveHTTPForTest(t *testing.T, cfg config) string {
	t.Helper()
	urlRE := regexp.MustCompile(`http://[0-9.:]+/`)
	var u string
	startHTTPForTest(t, cfg, func(line string) bool {
		u = urlRE.FindString(line)
		return u != ""
	})
	return u
}

// startHTTPForTest runs serveHTTP on cfg and hands each line it prints to
// ready until ready returns true; the server stops when the test ends.
func startHTTPForTest(t *testing.T, cfg config, ready func(line string) bool) {
	t.Helper()
	ts, err := newToolServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serveHTTP(ctx, cfg, ts, pw)
		_ = pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		sctx, scancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer scancel()
		if err := ts.shutdown(sctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		if ready(sc.Text()) {
			go func() { _, _ = io.Copy(io.Discard, pr) }()
			return
		}
	}
	t.Fatal("the server stopped printing before it was ready")
}

func httpClient(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, nil)
}

// TestServerWideLimitsOverHTTP: one token holder once opened 12 MCP
// sessions and 96 terminals with --max-sessions 8. Clients and sessions
// are now bounded for the whole server.
func TestServerWideLimitsOverHTTP(t *testing.T) {
	const token = "limits-test-token-0123456789abcdefghijkl"
	url := serveHTTPForTest(t, defaultConfig(t, "--http", "127.0.0.1:0", "--token", token,
		"--max-clients", "3", "--max-sessions", "2", "--max-total-sessions", "5"))
	var clients []*mcp.ClientSession
	for range 3 {
		cs, err := httpClient(t, url, token)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		clients = append(clients, cs)
	}
	if cs, err := httpClient(t, url, token); err == nil {
		_ = cs.Close()
		t.Fatal("a fourth MCP session was opened past --max-clients 3")
	} else if !strings.Contains(err.Error(), "429") && !strings.Contains(err.Error(), "Too Many") {
		t.Logf("the refusal: %v", err)
	}
	opened := 0
	for i, cs := range clients {
		for range 2 {
			_, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
			if res.IsError {
				if i != 2 || res.Meta["code"] != "TOO_MANY_SESSIONS" || !strings.Contains(resultText(res), "all owners") {
					t.Fatalf("client %d: %s", i, resultText(res))
				}
				continue
			}
			opened++
		}
	}
	if opened != 5 {
		t.Fatalf("%d sessions opened, want the server-wide 5", opened)
	}
	// A client that leaves frees its MCP session and its terminals.
	_ = clients[0].Close()
	deadline := time.Now().Add(testenv.HangBound)
	for {
		cs, err := httpClient(t, url, token)
		if err == nil {
			t.Cleanup(func() { _ = cs.Close() })
			// The server closes the departed client's terminals as its MCP
			// session ends, just after; until then the server is full.
			for {
				_, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
				if !res.IsError {
					break
				}
				if res.Meta["code"] != "TOO_MANY_SESSIONS" || time.Now().After(deadline) {
					t.Fatalf("after a client left: %s", resultText(res))
				}
				time.Sleep(50 * time.Millisecond)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no MCP session could be opened after a client left: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestScreenLimitsAreFlags: pty_resize to 4096x4096 (3.7 GB at the next
// pty_screen) is refused by default, and --screen-budget bounds the
// screens of every client together.
func TestScreenLimitsAreFlags(t *testing.T) {
	cs, _ := connect(t, defaultConfig(t, "--tools", "full", "--screen-cells", "20000", "--screen-budget", "30000"))
	opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash"}) // 40x160: 6,400 cells
	id := opened["sessionId"]
	_, res := call(t, cs, "pty_resize", map[string]any{"id": id, "rows": 4096, "cols": 4096})
	if !res.IsError || res.Meta["code"] != "INVALID_ARGUMENT" || !strings.Contains(resultText(res), "cells") {
		t.Fatalf("pty_resize 4096x4096: %s", resultText(res))
	}
	if _, res := call(t, cs, "pty_resize", map[string]any{"id": id, "rows": 100, "cols": 200}); res.IsError {
		t.Fatalf("pty_resize within the limits: %s", resultText(res))
	}
	second, _ := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	_, res = call(t, cs, "pty_resize", map[string]any{"id": second["sessionId"], "rows": 100, "cols": 150})
	if !res.IsError || res.Meta["code"] != "RESOURCE_LIMIT" || !strings.Contains(resultText(res), "close sessions") {
		t.Fatalf("pty_resize past the budget: %s", resultText(res))
	}
}
