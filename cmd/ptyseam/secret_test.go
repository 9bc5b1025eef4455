package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// The secret page serves its form under its token only, shows which
// program asks, takes one submission of at most core.MaxSecretBytes, and
// is gone once used.
func TestSecretPageIsOneTime(t *testing.T) {
	p, err := openSecretPage(secretPageData{Message: `<b>sudo</b> password`, Reader: secretReader{Session: "pty_x", Command: "bash",
		Programs: []core.ReaderProgram{{PID: 42, Exe: "/usr/bin/sudo", Argv: []string{"sudo", "apt", "install", "<x>"}, Reading: true}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	get := func(u string) (int, string) {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	post := func(secret string) int {
		t.Helper()
		resp, err := http.PostForm(p.url, url.Values{"secret": {secret}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	code, body := get(p.url)
	if code != http.StatusOK || !strings.Contains(body, "&lt;b&gt;sudo&lt;/b&gt; password") || !strings.Contains(body, `type="password"`) ||
		!strings.Contains(body, `<code>sudo apt install &#34;&lt;x&gt;&#34;</code> (executable <code>/usr/bin/sudo</code>, pid 42)`) ||
		!strings.Contains(body, `<code id="session">pty_x</code>`) {
		t.Fatalf("form: %d\n%s", code, body)
	}
	if code, _ := get(p.url[:strings.LastIndexByte(p.url, '/')+1] + strings.Repeat("0", 64)); code != http.StatusNotFound {
		t.Fatalf("a guessed token: %d", code)
	}
	if code := post(strings.Repeat("x", core.MaxSecretBytes+1)); code == http.StatusOK {
		t.Fatal("an over-long secret was taken")
	}
	if code := post(""); code != http.StatusBadRequest {
		t.Fatalf("an empty secret: %d", code)
	}
	go func() {
		sub := <-p.submissions
		if got := string(sub.secret); got != "hunter2" {
			t.Errorf("delivered %q", got)
		}
		sub.answer <- ""
	}()
	if code := post("hunter2"); code != http.StatusOK {
		t.Fatalf("the secret: %d", code)
	}
	if code := post("again"); code != http.StatusGone {
		t.Fatalf("a second submission: %d", code)
	}
	if code, _ := get(p.url); code != http.StatusGone {
		t.Fatalf("the page after use: %d", code)
	}
}

// The person who sends the secret sees the page that says it was sent,
// even when the call that took it closes the page at once.
func TestSecretPageAnswersBeforeItCloses(t *testing.T) {
	for i := range 20 {
		p, err := openSecretPage(secretPageData{Message: "password"})
		if err != nil {
			t.Fatal(err)
		}
		type answer struct {
			code int
			body string
			err  error
		}
		answered := make(chan answer, 1)
		go func() {
			resp, err := http.PostForm(p.url, url.Values{"secret": {"hunter2"}})
			if err != nil {
				answered <- answer{err: err}
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			answered <- answer{resp.StatusCode, string(b), err}
		}()
		(<-p.submissions).answer <- ""
		p.close() // as askSecret does once the secret is typed
		if a := <-answered; a.err != nil || a.code != http.StatusOK || !strings.Contains(a.body, `id="done"`) {
			t.Fatalf("submission %d: %d %q %v", i, a.code, a.body, a.err)
		}
	}
}
