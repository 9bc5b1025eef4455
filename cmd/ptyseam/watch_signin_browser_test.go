package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/ptyseam/ptyseam/cmd/ptyseam/internal/browsertest"
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
		chromedp.WaitReady(chromedp.CSS(`body`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := body(); !strings.Contains(got, "wrong token") {
		t.Fatalf("a wrong token: the page shows %q", got)
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
