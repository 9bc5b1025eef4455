package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
	"time"
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
	resp, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasSuffix(resp.Request.URL.Path, "/watch/") {
		t.Fatalf("one-time link: %d %s", resp.StatusCode, resp.Request.URL)
	}
	base := strings.SplitN(link, "/watch/", 2)[0]
	resp, err = c.Get(base + "/watch/api/sessions")
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
