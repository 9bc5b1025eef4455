package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/cmd/ptyseam/internal/browsertest"
	"github.com/ptyseam/ptyseam/cmd/ptyseam/web"
)

// serveWatchForTest runs serveHTTP on a loopback port and returns the MCP
// URL and the watch page's one-time link it printed.
func serveWatchForTest(t *testing.T, cfg config) (mcpURL, link string) {
	t.Helper()
	urlRE := regexp.MustCompile(`serving MCP over HTTP at (http://[0-9.:]+/)`)
	linkRE := regexp.MustCompile(`watch page: (http://\S+)`)
	startHTTPForTest(t, cfg, func(line string) bool {
		if m := urlRE.FindStringSubmatch(line); m != nil {
			mcpURL = m[1]
		}
		if m := linkRE.FindStringSubmatch(line); m != nil {
			link = m[1]
		}
		return link != ""
	})
	return mcpURL, link
}

// waitTerm waits until the watch page's terminal shows want.
func waitTerm(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const r = document.querySelector('#term .xterm-rows'); return !!r && r.textContent.includes(%q); })()`, want)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('#term .xterm-rows')||{}).textContent || ''`))
		t.Fatalf("the page's terminal never showed %q (it shows %q): %v", want, text, err)
	}
}

// afterFailure returns a context for looking at the page once ctx ended
// (a wait that failed), bounded by ten seconds.
func afterFailure(t *testing.T, ctx context.Context) context.Context {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// watchPageState describes the watch page for a failure message: the
// viewer's header and buttons, and the server's listing.
func watchPageState(t *testing.T, ctx context.Context) string {
	const js = `(async () => {
		const e = (id) => document.getElementById(id);
		let listing = "";
		try { listing = await (await fetch('/watch/api/sessions', {cache: 'no-store', headers: {'X-Ptyseam-Watch-Key': sessionStorage.getItem('ptyseam.watch.key') || ''}})).text(); } catch (err) { listing = String(err); }
		return JSON.stringify({state: e('viewer-state').textContent, note: e('viewer-note').textContent,
			takeHidden: e('take').hidden, handbackHidden: e('handback').hidden, conn: e('conn').textContent, listing});
	})()`
	s, err := chromedp.Run(afterFailure(t, ctx), chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return "the page's state could not be read: " + err.Error()
	}
	return "the page: " + s
}

// watchServer serves MCP over HTTP with the watch page for the test, and
// returns a connected MCP client (closed when the test ends) and the
// page's one-time link.
// watchTestToken is the bearer token of watchServer's server.
const watchTestToken = "watch-test-token-0123456789abcdefghijklmn"

func watchServer(t *testing.T) (*mcp.ClientSession, string) {
	t.Helper()
	if !web.HasXterm() {
		t.Fatal("this test binary embeds no xterm.js: run scripts/deps.sh (npm ci && npm run build in cmd/ptyseam/web)")
	}
	mcpURL, link := serveWatchForTest(t, defaultConfig(t, "--http", "127.0.0.1:0", "--token", watchTestToken))
	cs, err := httpClient(t, mcpURL, watchTestToken)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, link
}

// openBash opens a bash session through cs and returns its id.
func openBash(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	m, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	return m["sessionId"].(string)
}

// toolText calls a tool and returns its result (an error result too).
func toolText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return res, b.String()
}

// TestWatchPageInChromium drives the watch page in headless Chromium
// while a Go MCP client plays the model: the page lists the model's
// session, shows echo's output and vim's screen, takes over, types, and
// hands back; the model sees HUMAN_IN_CONTROL meanwhile and the note
// after.
func TestWatchPageInChromium(t *testing.T) {
	cs, link := watchServer(t)
	id := openBash(t, cs)
	if m, _ := call(t, cs, "pty_send", map[string]any{"id": id, "data": "echo hel''lo"}); !strings.Contains(fmt.Sprint(m["delta"]), "hello") {
		t.Fatalf("echo: %v", m)
	}

	ctx := browsertest.New(t)
	row := chromedp.CSS(fmt.Sprintf(`tr.session[data-id=%q]`, id))
	if err := chromedp.Do(ctx,
		chromedp.Navigate(link),
		chromedp.WaitVisible(row),
		chromedp.Click(row),
		chromedp.WaitVisible(chromedp.CSS(`#term .xterm-rows`)),
	); err != nil {
		t.Fatal(err)
	}
	waitTerm(t, ctx, "hello")
	// A used one-time link does not sign in again.
	code := link[strings.Index(link, "once=")+len("once="):]
	again := fmt.Sprintf(`fetch('/watch/login', {method: 'POST', body: new URLSearchParams({once: %q}), credentials: 'omit'}).then(r => r.status)`, code)
	if loc, err := chromedp.Run(ctx, chromedp.Evaluate[int](again, chromedp.EvalAwaitPromise)); err != nil || loc != 401 {
		t.Fatalf("second use of the one-time link: %d %v", loc, err)
	}

	file := filepath.Join(t.TempDir(), "watched.txt")
	res, text := toolText(t, cs, "pty_send", map[string]any{"id": id, "data": "vim -u NONE -i NONE -N " + file})
	if res.IsError {
		t.Fatalf("vim: %s", text)
	}
	waitTerm(t, ctx, "watched.txt")
	waitTerm(t, ctx, "~")
	browsertest.Screenshot(t, ctx, "watch-vim.png")

	// Take over: the model is refused.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#take`)), chromedp.WaitVisible(chromedp.CSS(`#handback`))); err != nil {
		t.Fatal(err)
	}
	res, text = toolText(t, cs, "pty_send", map[string]any{"id": id, "data": "ithe model typed this"})
	if !res.IsError || res.Meta["code"] != "HUMAN_IN_CONTROL" || !strings.Contains(text, "try again after they hand back") {
		t.Fatalf("a model's send while a person is in control: error %v, meta %v, %q", res.IsError, res.Meta, text)
	}
	// The person types into the terminal: insert a line, save, quit.
	const input = `#term .xterm-helper-textarea`
	if err := chromedp.Do(ctx, browsertest.InsertText(input, "ityped by a person"), browsertest.Key(input, kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitTerm(t, ctx, "typed by a person")
	if err := chromedp.Do(ctx, browsertest.InsertText(input, ":wq"), browsertest.Key(input, kb.Enter)); err != nil {
		t.Fatal(err)
	}
	browsertest.Screenshot(t, ctx, "watch-control.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#handback`)), chromedp.WaitVisible(chromedp.CSS(`#take`))); err != nil {
		t.Errorf("after a click on Hand back the page offers no Take over: %v\n%s", err, watchPageState(t, ctx))
		browsertest.Screenshot(t, afterFailure(t, ctx), "watch-handback-failed.png")
		t.FailNow()
	}
	// The model's next result says a person was in control and what
	// changed.
	m, res := call(t, cs, "pty_send", map[string]any{"id": id, "data": "cat " + file})
	hb, _ := m["handBack"].(map[string]any)
	if res.IsError || hb == nil || hb["person"] != web.Person {
		t.Fatalf("the send after the hand-back: %v", m)
	}
	if !strings.Contains(m["delta"].(string), "typed by a person") {
		t.Fatalf("the file the person saved: %q", m["delta"])
	}
	if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), "typed by a person") {
		t.Fatalf("file %q %v", b, err)
	}
	if m, _ := call(t, cs, "pty_send", map[string]any{"id": id, "data": "true"}); m["handBack"] != nil {
		t.Fatalf("the note came twice: %v", m)
	}

	// The page survives the session closing under it.
	call(t, cs, "pty_close", map[string]any{"id": id})
	js := `document.getElementById('viewer-note').textContent.includes('closed') || document.getElementById('viewer-state').textContent.includes('disconnected')`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js)); err != nil {
		t.Fatalf("the page did not say the session closed: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`!document.querySelector('tr.session[data-id=%q]')`, id))); err != nil {
		list, _ := chromedp.Run(afterFailure(t, ctx), chromedp.Evaluate[string](`fetch('/watch/api/sessions', {headers: {'X-Ptyseam-Watch-Key': sessionStorage.getItem('ptyseam.watch.key') || ''}}).then(r => r.text())`, chromedp.EvalAwaitPromise))
		t.Fatalf("the closed session stayed listed: %v (listing %s)", err, list)
	}
}

// TestWatchPageReplaysARecording: a session recorded by --record-dir is
// listed on the page and replays in asciinema-player.
func TestWatchPageReplaysARecording(t *testing.T) {
	if !web.HasPlayer() {
		t.Fatal("this test binary embeds no asciinema-player: run scripts/deps.sh (npm ci && npm run build in cmd/ptyseam/web)")
	}
	const token = "watch-test-token-0123456789abcdefghijklmn"
	mcpURL, link := serveWatchForTest(t, defaultConfig(t, "--http", "127.0.0.1:0", "--token", token, "--record-dir", t.TempDir()))
	cs, err := httpClient(t, mcpURL, token)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	m, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	id := m["sessionId"].(string)
	call(t, cs, "pty_send", map[string]any{"id": id, "data": "echo replay-me-$((6*7))"})
	call(t, cs, "pty_close", map[string]any{"id": id})

	ctx := browsertest.New(t)
	button := chromedp.CSS(fmt.Sprintf(`button.recording[data-name=%q]`, id+".cast"))
	if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(button), chromedp.Click(button)); err != nil {
		t.Fatal(err)
	}
	js := `document.getElementById('replay').textContent.includes('replay-me-42')`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		text, _ := chromedp.Run(afterFailure(t, ctx), chromedp.Evaluate[string](`document.getElementById('replay').textContent`))
		t.Fatalf("the player never showed the recorded output (it shows %q): %v", text, err)
	}
	browsertest.Screenshot(t, ctx, "watch-replay.png")
}

// TestWatchPageButtonsStayPut: the viewer's buttons keep their place on
// the page while the listing is redrawn with more sessions and the
// viewer's state line changes. A button that moves between a person's
// press and release is never clicked: under load a hand-back click
// pressed "Hand back" and was released on the page beside it, after the
// listing above the viewer had grown by a line.
func TestWatchPageButtonsStayPut(t *testing.T) {
	cs, link := watchServer(t)
	id := openBash(t, cs)
	ctx := browsertest.New(t)
	row := chromedp.CSS(fmt.Sprintf(`tr.session[data-id=%q]`, id))
	if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(row), chromedp.Click(row), chromedp.WaitVisible(chromedp.CSS(`#take`))); err != nil {
		t.Fatal(err)
	}
	const rect = `JSON.stringify(['take', 'close-viewer'].map((id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.x, r.y]; }))`
	before, err := chromedp.Run(ctx, chromedp.Evaluate[string](rect))
	if err != nil {
		t.Fatal(err)
	}
	// The listing grows by two sessions; the viewer's state line says
	// the model's last send waits for input.
	openBash(t, cs)
	openBash(t, cs)
	if m, _ := call(t, cs, "pty_send", map[string]any{"id": id, "data": "read answer"}); m["waitReason"] != "stdin_read" {
		t.Fatalf("read: %v", m)
	}
	js := `document.querySelectorAll('tr.session').length === 3 && document.getElementById('viewer-state').textContent.includes('stdin_read')`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("the page never showed three sessions and the read: %v\n%s", err, watchPageState(t, ctx))
	}
	after, err := chromedp.Run(ctx, chromedp.Evaluate[string](rect))
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		browsertest.Screenshot(t, ctx, "watch-buttons-moved.png")
		t.Fatalf("the viewer's buttons moved from %s to %s", before, after)
	}
}
