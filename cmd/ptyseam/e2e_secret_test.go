package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ptyseam/ptyseam/cmd/ptyseam/internal/browsertest"
)

// TestRealMCPClientSecret runs secret-client.mjs: a program's password
// prompt in a terminal is answered by a person on the one-time page that
// the real TypeScript client is asked to open (URL-mode elicitation), and
// again with a client that has no elicitation, whose model is given the
// page's link to hand to its user. Headless Chromium plays the person: it
// opens each page and types the secret. The terminal gets it (the program
// prints its hash), and the secret is in no tool result, although the
// program prints it, and no log line (the server logs at debug level).
func TestRealMCPClientSecret(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	// Checked after the browser's own cleanup (cleanups run last first).
	t.Cleanup(func() { waitNoSurvivors(t) })
	browser := browsertest.New(t)
	raw := make([]byte, 8)
	_, _ = rand.Read(raw)
	secret := "pw-" + hex.EncodeToString(raw) + "-Zq!"
	sum := sha256.Sum256([]byte(secret))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "secret-client.mjs", bin, t.TempDir(), hex.EncodeToString(sum[:])[:12])
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	opened := 0
	last := ""
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		stdout.WriteString(line + "\n")
		if url, ok := strings.CutPrefix(line, "OPEN "); ok {
			opened++
			last = url
			// The person: opens the page, types the secret, sends it.
			if err := chromedp.Do(browser,
				chromedp.Navigate(url),
				chromedp.WaitVisible(chromedp.CSS(`#secret`)),
				browsertest.InsertText(`#secret`, secret),
				chromedp.Click(chromedp.CSS(`#send`)),
				chromedp.WaitVisible(chromedp.CSS(`#done`)),
			); err != nil {
				t.Errorf("the page: %v", err)
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("node: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var summary struct {
		OK      bool               `json:"ok"`
		Figures map[string]float64 `json:"figures"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", lines[len(lines)-1], err)
	}
	if opened != 2 {
		t.Fatalf("%d pages opened, want 2 (elicited, and linked)", opened)
	}
	// The page was for one use and is gone.
	if resp, err := http.Get(last); err == nil {
		resp.Body.Close()
		t.Errorf("the one-time page still answers: %s", resp.Status)
	}
	if !strings.Contains(stderr.String(), "level=DEBUG") {
		t.Fatalf("no debug log captured (the check below would prove nothing):\n%s", stderr.String())
	}
	for what, text := range map[string]string{"a tool result": stdout.String(), "the server's log": stderr.String()} {
		if strings.Contains(text, secret) {
			t.Errorf("the secret is in %s", what)
		}
	}
	t.Logf("secret: %v; %d result lines, %d log bytes checked", summary.Figures, len(lines), stderr.Len())
}
