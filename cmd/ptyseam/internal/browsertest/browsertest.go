//go:build unix

// Package browsertest drives a real headless Chromium from Go tests
// (chromedp) for the web pages ptyseam serves. Chromium is a real part
// like bash or sshd: under CI a missing browser fails the test, it never
// skips (scripts/deps.sh installs it).
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// ChromiumEnv names the environment variable that may point at the
// browser binary; otherwise /usr/bin/chromium, then chromium or
// chromium-browser on PATH.
const ChromiumEnv = "PTYSEAM_CHROMIUM"

// ArtifactsEnv names a folder where screenshots are also kept (CI
// artifacts); they always go to the test's temporary folder.
const ArtifactsEnv = "PTYSEAM_ARTIFACTS"

// Find returns the Chromium binary, or "".
func Find() string {
	if p := os.Getenv(ChromiumEnv); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// New starts a headless Chromium for the test and returns a browser
// context (one tab) bounded by testenv.HangBound, a failure bound: the
// longest browser test takes seconds on a quiet machine and under a half
// a minute under a loaded run of the suite. The browser is stopped, and
// its processes waited for, when the test ends.
func New(t testing.TB) context.Context {
	t.Helper()
	path := Find()
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is missing: run scripts/deps.sh (apt-get install chromium), or set " + ChromiumEnv)
		}
		t.Skip("chromium is missing: run scripts/deps.sh (apt-get install chromium), or set " + ChromiumEnv)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:0:0], chromedp.DefaultExecAllocatorOptions[:]...)
	opts = append(opts,
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		// Chromium makes a folder for its single-instance socket in the
		// temporary folder and removes it only on a clean exit: a browser
		// killed at the test's end would leave one in /tmp each time.
		chromedp.Env("TMPDIR="+t.TempDir()),
		chromedp.WindowSize(1400, 900),
		chromedp.NoSandbox, // tests run as root in CI
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-crash-reporter", true),
		// The browser leads a process group of its own, so that every
		// process it started (renderers, the GPU and network services) can
		// be killed and waited for when the test ends.
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			if cmd.SysProcAttr == nil {
				cmd.SysProcAttr = &syscall.SysProcAttr{}
			}
			cmd.SysProcAttr.Setpgid = true
		}),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	pgid := 0
	t.Cleanup(func() {
		cancelBrowser() // closes the browser and waits for it
		cancelAlloc()
		if pgid > 0 {
			if err := killGroup(pgid, 30*time.Second); err != nil {
				t.Error(err)
			}
		}
	})
	// The first call starts the browser, which lives as long as the
	// context of that call: it gets no timeout of its own.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	if p := chromedp.FromContext(bctx).Browser.Process(); p != nil {
		pgid = p.Pid
	}
	tctx, cancelTimeout := context.WithTimeout(bctx, testenv.HangBound)
	t.Cleanup(cancelTimeout)
	return tctx
}

// Screenshot saves a PNG of the page as name in the test's temporary
// folder (and in $PTYSEAM_ARTIFACTS when set) and returns its path.
func Screenshot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	dirs := []string{t.TempDir()}
	if d := os.Getenv(ArtifactsEnv); d != "" {
		dirs = append(dirs, d)
	}
	var path string
	for i, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		if i == 0 || path == "" {
			path = p
		}
	}
	t.Logf("screenshot %s (%d bytes)", path, len(png))
	return path
}

// InsertText focuses the element sel and inserts text as an input
// method would (Input.insertText): one input event, as a person's typing
// reaches a page's text field. chromedp.SendKeys sends each printable
// key as a key-down and a char event, which a terminal widget (xterm.js)
// can count twice.
func InsertText(sel string, text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Focus(chromedp.CSS(sel))(ctx, t); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}

// Key focuses the element sel and presses one non-printing key (such as
// kb.Escape or kb.Enter).
func Key(sel string, key string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Focus(chromedp.CSS(sel))(ctx, t); err != nil {
			return err
		}
		_, err := chromedp.KeyEvent(key)(ctx, t)
		return err
	})
}

// killGroup kills every process left in the browser's process group and
// waits, at most limit, until none is left.
func killGroup(pgid int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		left := groupMembers(pgid)
		if len(left) == 0 {
			return nil
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		if time.Now().After(deadline) {
			return fmt.Errorf("browser processes %v survived SIGKILL", left)
		}
		time.Sleep(20 * time.Millisecond) // they are dying; the kernel reaps them
	}
}

// groupMembers lists the live processes (not zombies) of process group
// pgid, from /proc.
func groupMembers(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command (in parentheses): state ppid pgrp.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 || f[0] == "Z" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}
