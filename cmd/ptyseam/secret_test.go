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
