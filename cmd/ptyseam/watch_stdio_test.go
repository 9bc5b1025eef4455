package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/cmd/ptyseam/web"
)

// TestWatchFlagServesThePageForTheStdioServer: --watch gives the stdio
// server a loopback page with a token of its own, reached through the
// one-time link it prints; the page ends with the server.
func TestWatchFlagServesThePageForTheStdioServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stdinR, stdinW := io.Pipe()
	errR, errW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"mcp", "--watch", "127.0.0.1:0"}, stdinR, io.Discard, errW)
		_ = errW.Close()
	}()
	linkRE := regexp.MustCompile(`watch page: (http://\S+)`)
	sc := bufio.NewScanner(errR)
	link := ""
	for link == "" && sc.Scan() {
		if m := linkRE.FindStringSubmatch(sc.Text()); m != nil {
			link = m[1]
		}
	}
	go func() { _, _ = io.Copy(io.Discard, errR) }()
	if link == "" {
		t.Fatal("no watch page link")
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	base := strings.SplitN(link, "/watch/", 2)[0]
	resp, err := c.PostForm(base+"/watch/login", url.Values{"once": {link[strings.Index(link, "once=")+len("once="):]}})
	if err != nil {
		t.Fatal(err)
	}
	var signin struct{ Key string }
	_ = json.NewDecoder(resp.Body).Decode(&signin)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || signin.Key == "" {
		t.Fatalf("one-time link: %d %q", resp.StatusCode, signin.Key)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/watch/api/sessions", nil)
	req.Header.Set(web.KeyHeader, signin.Key)
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"sessions":[]`) {
		t.Fatalf("listing: %d %s", resp.StatusCode, b)
	}
	// Without the cookie: refused.
	resp, err = http.Get(base + "/watch/api/sessions")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("listing without signing in: %d", resp.StatusCode)
	}
	_ = stdinW.Close() // the client leaves: the server and its page end
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := http.Get(base + "/watch/"); err == nil {
		t.Fatal("the watch page outlived the server")
	}
}
