package web

import (
	"context"
	"encoding/json"
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

// tab is one browser tab: its cookie jar and the key its sign-in gave.
type tab struct {
	c   *http.Client
	key string
}

func client(t *testing.T) *tab {
	jar, _ := cookiejar.New(nil)
	return &tab{c: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// status sends a request as the tab's page does (with its key) and
// returns the answer's status.
func status(t *testing.T, tb *tab, method, u string, form url.Values) int {
	t.Helper()
	code, _ := send(t, tb, method, u, form)
	return code
}

// send sends a request as the tab's page does (with its key) and returns
// the answer's status and body.
func send(t *testing.T, tb *tab, method, u string, form url.Values) (int, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if tb.key != "" {
		req.Header.Set(KeyHeader, tb.key)
	}
	resp, err := tb.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b)
}

// signIn posts form to the sign-in as the sign-in page's script does,
// keeps the key it answers and returns the answer's status.
func signIn(t *testing.T, tb *tab, base string, form url.Values) int {
	t.Helper()
	resp, err := tb.c.PostForm(base+"/watch/login", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		var m struct{ Key string }
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || m.Key == "" {
			t.Fatalf("the sign-in answered no key: %v", err)
		}
		tb.key = m.Key
	}
	return resp.StatusCode
}

// byLink signs tb in with a one-time link, as the sign-in page it opens
// does: it posts the link's code.
func byLink(t *testing.T, tb *tab, link string) int {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	if got := status(t, tb, "GET", link, nil); got != http.StatusOK {
		t.Fatalf("opening the one-time link: %d", got)
	}
	return signIn(t, tb, u.Scheme+"://"+u.Host, url.Values{"once": {u.Query().Get("once")}})
}

func TestSignInByTokenOrOneTimeLink(t *testing.T) {
	_, _, a, srv := newHubServer(t, Options{})
	api := srv.URL + "/watch/api/sessions"
	anon := client(t)
	if got := status(t, anon, "GET", api, nil); got != http.StatusUnauthorized {
		t.Fatalf("listing without signing in: %d", got)
	}
	if got := signIn(t, anon, srv.URL, url.Values{"token": {"wrong-token"}}); got != http.StatusUnauthorized {
		t.Fatalf("wrong token: %d", got)
	}
	if got := status(t, anon, "GET", api, nil); got != http.StatusUnauthorized {
		t.Fatalf("listing after a wrong token: %d", got)
	}
	byToken := client(t)
	if got := signIn(t, byToken, srv.URL, url.Values{"token": {"watch-unit-test-token-0123456789abcdef"}}); got != http.StatusOK {
		t.Fatalf("sign in with the token: %d", got)
	}
	if got := status(t, byToken, "GET", api, nil); got != http.StatusOK {
		t.Fatalf("listing after the token: %d", got)
	}
	link := a.OneTimeLink(srv.URL)
	tb := client(t)
	if got := status(t, tb, "GET", link, nil); got != http.StatusOK {
		t.Fatalf("opening the one-time link: %d", got)
	}
	if got := byLink(t, tb, link); got != http.StatusOK {
		t.Fatalf("one-time link: %d", got)
	}
	if got := status(t, tb, "GET", api, nil); got != http.StatusOK {
		t.Fatalf("listing after the link: %d", got)
	}
	if got := byLink(t, client(t), link); got != http.StatusUnauthorized {
		t.Fatalf("the one-time link worked twice: %d", got)
	}
}

// TestCallsNeedTheCookieAndTheTabsKey: the sign-in cookie alone (a page
// on another port of the host receives it) opens nothing, nor does the
// key alone or with another tab's cookie; the page itself needs the
// cookie only.
func TestCallsNeedTheCookieAndTheTabsKey(t *testing.T) {
	svc, _, a, srv := newHubServer(t, Options{})
	s, err := svc.Spawn(context.Background(), core.NewOwner("model"), core.SpawnRequest{Type: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	first, second := client(t), client(t)
	if byLink(t, first, a.OneTimeLink(srv.URL)) != http.StatusOK || byLink(t, second, a.OneTimeLink(srv.URL)) != http.StatusOK {
		t.Fatal("sign-in failed")
	}
	api := srv.URL + "/watch/api/sessions"
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/watch/ws?id=" + string(s.ID)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	cookieOnly := &tab{c: first.c}
	keyOnly := &tab{c: &http.Client{Timeout: 10 * time.Second}, key: first.key}
	crossed := &tab{c: second.c, key: first.key}
	for name, tb := range map[string]*tab{"the cookie alone": cookieOnly, "the key alone": keyOnly, "another tab's cookie": crossed} {
		if got := status(t, tb, "GET", api, nil); got != http.StatusUnauthorized {
			t.Errorf("%s: listing %d", name, got)
		}
		opts := &websocket.DialOptions{HTTPClient: tb.c}
		if tb.key != "" {
			opts.Subprotocols = []string{Subprotocol, KeyProtocolPrefix + tb.key}
		}
		if c, resp, err := websocket.Dial(ctx, wsURL, opts); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
			if c != nil {
				c.CloseNow()
			}
			t.Errorf("%s: WebSocket %v %v", name, resp, err)
		}
	}
	// Another tab of the first browser (its cookie jar, a key of its own)
	// signs in: both tabs stay signed in.
	other := &tab{c: first.c}
	if got := signIn(t, other, srv.URL, url.Values{"token": {"watch-unit-test-token-0123456789abcdef"}}); got != http.StatusOK {
		t.Fatalf("a second tab's sign-in: %d", got)
	}
	if other.key == first.key || status(t, other, "GET", api, nil) != http.StatusOK || status(t, first, "GET", api, nil) != http.StatusOK {
		t.Error("two tabs of one browser are not both signed in")
	}
	if got := status(t, cookieOnly, "GET", srv.URL+"/watch/", nil); got != http.StatusOK {
		t.Errorf("the page with the cookie: %d", got)
	}
	if got := status(t, first, "GET", api, nil); got != http.StatusOK {
		t.Errorf("the tab itself: listing %d", got)
	}
	c, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPClient: first.c, Subprotocols: []string{Subprotocol, KeyProtocolPrefix + first.key}})
	if err != nil {
		t.Fatalf("the tab itself: WebSocket %v", err)
	}
	defer c.CloseNow()
	if c.Subprotocol() != Subprotocol {
		t.Errorf("the server picked the subprotocol %q", c.Subprotocol())
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
	if got := byLink(t, c, a.OneTimeLink(srv.URL)); got != http.StatusOK {
		t.Fatal(got)
	}
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/watch/ws?id=" + string(s.ID)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	dial := func(hdr http.Header) (*websocket.Conn, *http.Response, error) {
		return websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPClient: c.c, HTTPHeader: hdr, Subprotocols: []string{Subprotocol, KeyProtocolPrefix + c.key}})
	}
	// A page of another origin cannot open the stream, cookie or not.
	_, resp, err := dial(http.Header{"Origin": {"http://evil.example"}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin WebSocket: %v %v", resp, err)
	}
	first, _, err := dial(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.CloseNow()
	if _, _, err := first.Read(ctx); err != nil { // the state message: the viewer is counted
		t.Fatal(err)
	}
	_, resp, err = dial(nil)
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
	if got := byLink(t, c, a.OneTimeLink(srv.URL)); got != http.StatusOK {
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
	_, b := send(t, c, "GET", srv.URL+"/watch/api/recordings", nil)
	if !strings.Contains(b, "pty_abc123.cast") || strings.Contains(b, "notes.txt") {
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
	if got := byLink(t, c, a.OneTimeLink(srv.URL)); got != http.StatusOK {
		t.Fatal(got)
	}
	for _, name := range []string{"pty_out.cast", "pty_in.cast"} {
		code, b := send(t, c, "GET", srv.URL+"/watch/recordings/"+name, nil)
		if code != http.StatusNotFound || strings.Contains(b, "secret-hash") {
			t.Fatalf("%s: %d %q", name, code, b)
		}
	}
	if got := status(t, c, "GET", srv.URL+"/watch/recordings/pty_real.cast", nil); got != http.StatusOK {
		t.Fatalf("the regular recording: %d", got)
	}
}

// TestTabsOfOneBrowserAreBounded: one browser holds at most maxTabs keys;
// a sign-in past it signs its oldest tab out.
func TestTabsOfOneBrowserAreBounded(t *testing.T) {
	_, _, _, srv := newHubServer(t, Options{})
	api := srv.URL + "/watch/api/sessions"
	jar := client(t).c
	var tabs []*tab
	for range maxTabs + 1 {
		tb := &tab{c: jar}
		if got := signIn(t, tb, srv.URL, url.Values{"token": {"watch-unit-test-token-0123456789abcdef"}}); got != http.StatusOK {
			t.Fatal(got)
		}
		tabs = append(tabs, tb)
	}
	if got := status(t, tabs[0], "GET", api, nil); got != http.StatusUnauthorized {
		t.Errorf("the oldest tab past the bound: %d", got)
	}
	if got := status(t, tabs[1], "GET", api, nil); got != http.StatusOK {
		t.Errorf("the second tab: %d", got)
	}
}
