package web

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// newHubServer serves a hub over a real service with the local backends.
func newHubServer(t *testing.T, opts Options) (*core.Service, *Hub, *Auth, *httptest.Server) {
	t.Helper()
	h := NewHub(opts)
	svc := core.New(core.Options{OnSpawn: h.OnSpawn, OnEvent: h.OnEvent})
	h.Bind(svc)
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	a := NewAuth("watch-unit-test-token-0123456789abcdef")
	srv := httptest.NewServer(Handler(h, a))
	t.Cleanup(func() {
		h.Close()
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return svc, h, a, srv
}

func client(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 10 * time.Second}
}

func status(t *testing.T, c *http.Client, method, u string, form url.Values) int {
	t.Helper()
	var resp *http.Response
	var err error
	if method == http.MethodPost {
		resp, err = c.PostForm(u, form)
	} else {
		resp, err = c.Get(u)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestSignInByTokenOrOneTimeLink(t *testing.T) {
	_, _, a, srv := newHubServer(t, Options{})
	api := srv.URL + "/watch/api/sessions"
	anon := client(t)
	if got := status(t, anon, "GET", api, nil); got != http.StatusUnauthorized {
		t.Fatalf("listing without signing in: %d", got)
	}
	if got := status(t, anon, "POST", srv.URL+"/watch/login", url.Values{"token": {"wrong-token"}}); got != http.StatusUnauthorized {
		t.Fatalf("wrong token: %d", got)
	}
	if got := status(t, anon, "GET", api, nil); got != http.StatusUnauthorized {
		t.Fatalf("listing after a wrong token: %d", got)
	}
	byToken := client(t)
	if got := status(t, byToken, "POST", srv.URL+"/watch/login", url.Values{"token": {"watch-unit-test-token-0123456789abcdef"}}); got != http.StatusOK {
		t.Fatalf("sign in with the token: %d", got)
	}
	if got := status(t, byToken, "GET", api, nil); got != http.StatusOK {
		t.Fatalf("listing after the token: %d", got)
	}
	link := a.OneTimeLink(srv.URL)
	byLink := client(t)
	if got := status(t, byLink, "GET", link, nil); got != http.StatusOK {
		t.Fatalf("one-time link: %d", got)
	}
	if got := status(t, byLink, "GET", api, nil); got != http.StatusOK {
		t.Fatalf("listing after the link: %d", got)
	}
	if got := status(t, client(t), "GET", link, nil); got != http.StatusUnauthorized {
		t.Fatalf("the one-time link worked twice: %d", got)
	}
}

func TestViewersAreBoundedAndCrossOriginRefused(t *testing.T) {
	svc, _, a, srv := newHubServer(t, Options{MaxViewers: 1})
	owner := core.NewOwner("model")
	s, err := svc.Spawn(context.Background(), owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	c := client(t)
	if got := status(t, c, "GET", a.OneTimeLink(srv.URL), nil); got != http.StatusOK {
		t.Fatal(got)
	}
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/watch/ws?id=" + string(s.ID)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	// A page of another origin cannot open the stream, cookie or not.
	_, resp, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPClient: c, HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin WebSocket: %v %v", resp, err)
	}
	first, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		t.Fatal(err)
	}
	defer first.CloseNow()
	if _, _, err := first.Read(ctx); err != nil { // the state message: the viewer is counted
		t.Fatal(err)
	}
	_, resp, err = websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPClient: c})
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a viewer past the bound: %v %v", resp, err)
	}
}

func TestViewerFallingBehindIsEnded(t *testing.T) {
	v := newViewer(10)
	v.queue([]byte("12345"))
	v.queue([]byte("67890"))
	v.queue([]byte("x"))
	select {
	case <-v.done:
	default:
		t.Fatal("a viewer past its queue bound was not ended")
	}
	if !strings.Contains(v.endReason(), "fell too far behind") {
		t.Fatalf("reason %q", v.endReason())
	}
}

func TestAppendBoundedKeepsTheNewest(t *testing.T) {
	h := appendBounded(nil, []byte("abcdef"), 4)
	h = appendBounded(h, []byte("gh"), 4)
	if string(h) != "efgh" {
		t.Fatalf("%q", h)
	}
}

func TestRecordingsAreServedByNameOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pty_abc123.cast"), []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, a, srv := newHubServer(t, Options{RecordDir: dir})
	c := client(t)
	if got := status(t, c, "GET", srv.URL+"/watch/recordings/pty_abc123.cast", nil); got != http.StatusUnauthorized {
		t.Fatalf("a recording without signing in: %d", got)
	}
	if got := status(t, c, "GET", a.OneTimeLink(srv.URL), nil); got != http.StatusOK {
		t.Fatal(got)
	}
	if got := status(t, c, "GET", srv.URL+"/watch/recordings/pty_abc123.cast", nil); got != http.StatusOK {
		t.Fatalf("a recording: %d", got)
	}
	for _, name := range []string{"notes.txt", "..%2fnotes.txt", "pty_abc123.cast%2f..%2f..%2fnotes.txt", "%2e%2e"} {
		if got := status(t, c, "GET", srv.URL+"/watch/recordings/"+name, nil); got != http.StatusNotFound {
			t.Fatalf("%s: %d", name, got)
		}
	}
	resp, err := c.Get(srv.URL + "/watch/api/recordings")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "pty_abc123.cast") || strings.Contains(string(b), "notes.txt") {
		t.Fatalf("listing %s", b)
	}
}

// A link named like a recording is not served, whether it points out of
// the folder or at another recording: only regular files are.
func TestRecordingLinksAreNotServed(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(outside, []byte("root:secret-hash:"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pty_real.cast"), []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"pty_out.cast": outside, "pty_in.cast": "pty_real.cast"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	_, _, a, srv := newHubServer(t, Options{RecordDir: dir})
	c := client(t)
	if got := status(t, c, "GET", a.OneTimeLink(srv.URL), nil); got != http.StatusOK {
		t.Fatal(got)
	}
	for _, name := range []string{"pty_out.cast", "pty_in.cast"} {
		resp, err := c.Get(srv.URL + "/watch/recordings/" + name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || strings.Contains(string(b), "secret-hash") {
			t.Fatalf("%s: %d %q", name, resp.StatusCode, b)
		}
	}
	if got := status(t, c, "GET", srv.URL+"/watch/recordings/pty_real.cast", nil); got != http.StatusOK {
		t.Fatalf("the regular recording: %d", got)
	}
}
