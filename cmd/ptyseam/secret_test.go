package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The secret page serves its form under its token only, takes one
// submission of at most maxSecretBytes, and is gone once used.
func TestSecretPageIsOneTime(t *testing.T) {
	p, err := openSecretPage(`<b>sudo</b> password`)
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
	if code != http.StatusOK || !strings.Contains(body, "&lt;b&gt;sudo&lt;/b&gt; password") || !strings.Contains(body, `type="password"`) {
		t.Fatalf("form: %d\n%s", code, body)
	}
	if code, _ := get(p.url[:strings.LastIndexByte(p.url, '/')+1] + strings.Repeat("0", 64)); code != http.StatusNotFound {
		t.Fatalf("a guessed token: %d", code)
	}
	if code := post(strings.Repeat("x", maxSecretBytes+1)); code == http.StatusOK {
		t.Fatal("an over-long secret was taken")
	}
	if code := post(""); code != http.StatusBadRequest {
		t.Fatalf("an empty secret: %d", code)
	}
	if code := post("hunter2"); code != http.StatusOK {
		t.Fatalf("the secret: %d", code)
	}
	if got := string(<-p.secrets); got != "hunter2" {
		t.Fatalf("delivered %q", got)
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
		p, err := openSecretPage("password")
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
		<-p.secrets
		p.close() // as askSecret does once the secret is typed
		if a := <-answered; a.err != nil || a.code != http.StatusOK || !strings.Contains(a.body, `id="done"`) {
			t.Fatalf("submission %d: %d %q %v", i, a.code, a.body, a.err)
		}
	}
}
