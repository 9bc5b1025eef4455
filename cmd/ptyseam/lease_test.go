package main

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

const leaseToken = "lease-test-token-0123456789abcdefghijklmn"

// resumeRE finds the resume token in pty_open's text.
var resumeRE = regexp.MustCompile(`resume token (rsm_[a-z0-9]+)`)

// noDelete is a client transport that drops the connection instead of
// ending the MCP session: its DELETE never reaches the server, as when a
// network blip or a crash ends a client.
type noDelete struct{ next http.RoundTripper }

func (n noDelete) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodDelete {
		return nil, errors.New("the network is down")
	}
	return n.next.RoundTrip(r)
}

func droppingClient(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: noDelete{bearer{leaseToken, http.DefaultTransport}}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// openWithToken opens a bash that prints its pid, and returns the
// session's id, the pid and the resume token.
func openWithToken(t *testing.T, cs *mcp.ClientSession) (string, string, string) {
	t.Helper()
	opened, res := call(t, cs, "pty_open", map[string]any{"command": "echo pid=$$"})
	text := resultText(res)
	if res.IsError {
		t.Fatalf("pty_open: %s", text)
	}
	m := resumeRE.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("pty_open with a lease gives no resume token: %q", text)
	}
	pid := regexp.MustCompile(`pid=(\d+)`).FindStringSubmatch(opened["initialOutput"].(string))
	if pid == nil {
		t.Fatalf("no pid in %v", opened)
	}
	return opened["sessionId"].(string), pid[1], m[1]
}

// TestLeaseResumesADroppedClient: with --lease, a client whose
// connection dropped gets its terminals back on a new connection with its
// resume token, the output printed meanwhile intact; another client
// cannot take them with the session's id nor with a wrong token.
func TestLeaseResumesADroppedClient(t *testing.T) {
	url := serveHTTPForTest(t, defaultConfig(t, "--http", "127.0.0.1:0", "--token", leaseToken, "--lease", "1m"))
	first := droppingClient(t, url)
	id, pid, token := openWithToken(t, first)
	// Output the client will read after it reconnects.
	if _, res := call(t, first, "pty_send", map[string]any{"id": id, "data": "sleep 1; echo printed-while-away", "timeoutMs": 200}); res.IsError {
		t.Fatalf("pty_send: %s", resultText(res))
	}
	_ = first.Close() // the DELETE is lost: the server still holds the session

	thief, err := httpClient(t, url, leaseToken)
	if err != nil {
		t.Fatal(err)
	}
	defer thief.Close()
	if _, res := call(t, thief, "pty_send", map[string]any{"id": id, "data": "echo stolen"}); !res.IsError {
		t.Fatalf("another client typed into the session: %s", resultText(res))
	}
	if _, res := call(t, thief, "pty_open", map[string]any{"resume": "rsm_" + strings.Repeat("a", 26)}); !res.IsError {
		t.Fatalf("a wrong token resumed: %s", resultText(res))
	}

	second, err := httpClient(t, url, leaseToken)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	resumed, res := call(t, second, "pty_open", map[string]any{"resume": token})
	if res.IsError || resumed["sessionId"] != id || !strings.Contains(resultText(res), id) {
		t.Fatalf("resume: %v %s", resumed, resultText(res))
	}
	var got strings.Builder
	for deadline := time.Now().Add(testenv.HangBound); !strings.Contains(got.String(), "printed-while-away"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the output printed while away never came: %q", got.String())
		}
		tail, res := call(t, second, "pty_tail", map[string]any{"id": id})
		if res.IsError {
			t.Fatalf("pty_tail after resume: %s", resultText(res))
		}
		got.WriteString(tail["text"].(string))
	}
	if strings.Contains(got.String(), "pid=") {
		t.Fatalf("the tail repeated output returned before the drop: %q", got.String())
	}
	sent, res := call(t, second, "pty_send", map[string]any{"id": id, "data": "echo pid=$$"})
	if res.IsError || !strings.Contains(sent["delta"].(string), "pid="+pid) {
		t.Fatalf("the resumed session is not the same shell (pid %s): %s", pid, resultText(res))
	}
	// The token was used: the thief still cannot use it after the owner did.
	if _, res := call(t, thief, "pty_tail", map[string]any{"id": id}); !res.IsError {
		t.Fatalf("another client read the resumed session: %s", resultText(res))
	}
}

// TestLeaseEnds: a dropped client that does not come back within the
// lease loses its terminals, and their processes are gone; its token then
// resumes nothing.
func TestLeaseEnds(t *testing.T) {
	url := serveHTTPForTest(t, defaultConfig(t, "--http", "127.0.0.1:0", "--token", leaseToken, "--lease", "1s"))
	first, err := httpClient(t, url, leaseToken)
	if err != nil {
		t.Fatal(err)
	}
	_, pid, token := openWithToken(t, first)
	_ = first.Close() // the session ends: its terminals wait for the lease
	time.Sleep(300 * time.Millisecond)
	if !alivePID(pid) {
		t.Fatalf("the shell %s ended at once, before its lease", pid)
	}
	for deadline := time.Now().Add(testenv.HangBound); alivePID(pid); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the shell %s outlived its lease", pid)
		}
	}
	second, err := httpClient(t, url, leaseToken)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, res := call(t, second, "pty_open", map[string]any{"resume": token}); !res.IsError || !strings.Contains(resultText(res), "lease") {
		t.Fatalf("a token resumed after its lease: %s", resultText(res))
	}
}

// Without --lease, pty_open takes no resume argument and gives no token.
func TestNoLeaseByDefault(t *testing.T) {
	cs, _ := connect(t, defaultConfig(t))
	_, res := call(t, cs, "pty_open", map[string]any{"command": "true"})
	if res.IsError || strings.Contains(resultText(res), "resume") {
		t.Fatalf("pty_open without a lease: %s", resultText(res))
	}
	if _, res := call(t, cs, "pty_open", map[string]any{"resume": "rsm_x"}); !res.IsError {
		t.Fatalf("resume accepted without a lease: %s", resultText(res))
	}
}

func alivePID(pid string) bool {
	n, err := strconv.Atoi(pid)
	return err == nil && alive(n)
}

// TestLeaseResumesAfterTheSessionEnded: a client whose MCP session ended
// (a DELETE, the idle timeout) resumes its terminal and its job while the
// lease runs.
func TestLeaseResumesAfterTheSessionEnded(t *testing.T) {
	url := serveHTTPForTest(t, defaultConfig(t, "--http", "127.0.0.1:0", "--token", leaseToken, "--lease", "1m"))
	first, err := httpClient(t, url, leaseToken)
	if err != nil {
		t.Fatal(err)
	}
	id, pid, token := openWithToken(t, first)
	job, res := call(t, first, "bg_launch", map[string]any{"command": "sleep", "args": []string{"60"}})
	if res.IsError {
		t.Fatalf("bg_launch: %s", resultText(res))
	}
	_ = first.Close()
	time.Sleep(200 * time.Millisecond)
	second, err := httpClient(t, url, leaseToken)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, res := call(t, second, "pty_open", map[string]any{"resume": token}); res.IsError {
		t.Fatalf("resume: %s", resultText(res))
	}
	sent, res := call(t, second, "pty_send", map[string]any{"id": id, "data": "echo pid=$$"})
	if res.IsError || !strings.Contains(sent["delta"].(string), "pid="+pid) {
		t.Fatalf("the resumed session is not the same shell (pid %s): %s", pid, resultText(res))
	}
	if r, res := call(t, second, "bg_read", map[string]any{"id": job["id"]}); res.IsError || r["status"] != "running" {
		t.Fatalf("the job did not come back: %s", resultText(res))
	}
}
