package main

import (
	"bytes"
	"io"
	"net/http"
	"testing"
)

// An initialize padded past any look-ahead (2 MiB of blanks before its
// body) opens no MCP session past --max-clients: the limit counts
// sessions as they are opened, whatever the request looks like.
func TestPaddedInitializeDoesNotPassTheClientLimit(t *testing.T) {
	const token = "padded-test-token-0123456789abcdefghijkl"
	url := serveHTTPForTest(t, defaultConfig(t, "--http", "127.0.0.1:0", "--token", token, "--max-clients", "1"))
	initialize := func(pad int) (int, string) {
		body := append(bytes.Repeat([]byte(" "), pad), []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"padded","version":"1"}}}`)...)
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
	}
	if code, id := initialize(0); code != http.StatusOK || id == "" {
		t.Fatalf("the first client: %d %q", code, id)
	}
	for range 3 {
		if code, id := initialize(2 << 20); id != "" || code != http.StatusTooManyRequests {
			t.Fatalf("a padded initialize past --max-clients 1: %d, session %q", code, id)
		}
	}
}
