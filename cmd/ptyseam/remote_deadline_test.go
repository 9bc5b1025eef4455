package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSilentFarSideOpenHonoursItsDeadline: a far side that logs in and
// never says hello, or says hello and then never answers, made pty_open
// wait without bound (timeoutMs 10000: no answer after 240 s). Each open
// now ends by its deadline with an error saying what the far side did.
func TestSilentFarSideOpenHonoursItsDeadline(t *testing.T) {
	for _, behaviour := range []string{"silent", "mute"} {
		t.Run(behaviour, func(t *testing.T) {
			hosts := hostileHost(t, behaviour)
			token := randomToken()
			p := startHTTPWith(t, token, nil, "--token", token, "--remote-hosts", hosts, "--max-timeout", "30s")
			const timeout = 3 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			start := time.Now()
			res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: "pty_open", Arguments: map[string]any{
				"command": "bash", "target": "box", "timeoutMs": timeout.Milliseconds()}})
			took := time.Since(start)
			if err != nil {
				t.Fatalf("pty_open after %v: %v", took, err)
			}
			t.Logf("pty_open on a %s far side answered in %v: %s %v", behaviour, took.Round(time.Millisecond), resultText(res), res.Meta)
			if !res.IsError || res.Meta["code"] == "INVALID_ARGUMENT" {
				t.Fatalf("pty_open on a %s far side: %s", behaviour, resultText(res))
			}
			// The deadline is the behaviour: the answer comes by it, plus
			// what a loaded machine adds to tearing the attempt down.
			if took > timeout+5*time.Second {
				t.Fatalf("pty_open with timeoutMs %d answered after %v", timeout.Milliseconds(), took)
			}
		})
	}
}

// TestAbandonedRemoteOpenFreesItsSlot: pty_open calls hung on a silent
// far side kept holding server-wide slots (another client got
// TOO_MANY_SESSIONS) and the DELETE of their MCP session did not answer.
// A call its client cancels frees its slot at once; ending the MCP
// session (DELETE) ends its calls, answers, and frees their slots; all
// long before the open's own deadline (30 s here).
func TestAbandonedRemoteOpenFreesItsSlot(t *testing.T) {
	hosts, srv := hostileServer(t, "silent")
	token := randomToken()
	p := startHTTPWith(t, token, nil, "--token", token, "--remote-hosts", hosts, "--max-timeout", "30s", "--max-total-sessions", "1")
	// loggedIn waits for the far side's n-th login: an open on it is
	// then under way, holding its slot.
	loggedIn := func(n int) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for strings.Count(srv.Logs(), "Accepted password") < n {
			if time.Now().After(deadline) {
				t.Fatalf("no login %d on the far side:\n%s", n, srv.Logs())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	other, err := httpClient(t, p.url, token)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// slotHeld reports whether a local open is refused for want of a
	// slot; a local session it opens is closed again.
	slotHeld := func() bool {
		res, err := other.CallTool(context.Background(), &mcp.CallToolParams{Name: "pty_open", Arguments: map[string]any{"command": "bash"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			if res.Meta["code"] != "TOO_MANY_SESSIONS" {
				t.Fatalf("pty_open: %s", resultText(res))
			}
			return true
		}
		id, _ := res.StructuredContent.(map[string]any)["sessionId"].(string)
		call(t, other, "pty_close", map[string]any{"id": id})
		return false
	}
	waitSlot := func(held bool, what string, within time.Duration) {
		t.Helper()
		deadline := time.Now().Add(within)
		for slotHeld() != held {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the slot is still %s after %v", what, map[bool]string{true: "free", false: "held"}[held], within)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	hang := func(cs *mcp.ClientSession, ctx context.Context) chan error {
		done := make(chan error, 1)
		go func() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "pty_open", Arguments: map[string]any{
				"command": "bash", "target": "box", "timeoutMs": 30000}})
			if err == nil {
				t.Logf("the open on the silent host answered: %s", resultText(res))
			}
			done <- err
		}()
		return done
	}

	// Cancelled by its client.
	ctx, cancel := context.WithCancel(context.Background())
	done := hang(p.cs, ctx)
	loggedIn(1)
	waitSlot(true, "an open on the silent host under way", time.Second)
	cancel()
	<-done
	waitSlot(false, "the open cancelled", 10*time.Second)

	// Abandoned, then its MCP session ended with DELETE.
	abandoned, err := httpClient(t, p.url, token)
	if err != nil {
		t.Fatal(err)
	}
	done = hang(abandoned, context.Background())
	loggedIn(2)
	waitSlot(true, "an abandoned open on the silent host", time.Second)
	start := time.Now()
	closed := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodDelete, p.url, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Mcp-Session-Id", abandoned.ID())
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusNoContent {
				err = fmt.Errorf("HTTP %d", resp.StatusCode)
			}
		}
		closed <- err
	}()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("DELETE: %v", err)
		}
		t.Logf("DELETE answered in %v", time.Since(start).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Fatal("the DELETE of a session with an open under way did not answer in 10 s")
	}
	waitSlot(false, "the abandoned open's session ended", 10*time.Second)
	<-done
	_ = abandoned.Close()
}
