package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// gpg asks for a passphrase through gpg-agent's pinentry, a dialog on the
// terminal that a daemon the session started draws and reads while gpg
// waits on the agent's socket: the send settles on the dialog's read
// (stdin_read, the prompt hiding input, the screen shown), pty_secret
// types the passphrase into the dialog and again into its confirmation,
// and the file gpg wrote opens with that passphrase. A dialog that asks a
// question with buttons (pinentry's warning about a short passphrase)
// takes no secret.
func TestSecretIntoGPGsPinentry(t *testing.T) {
	needGPG(t)
	const passphrase = "correct-horse-battery-9"
	var mu sync.Mutex
	answers := []string{passphrase, passphrase, "short"}
	cs, _ := connectEliciting(t, defaultConfig(t), func(string) string {
		mu.Lock()
		defer mu.Unlock()
		if len(answers) == 0 {
			t.Error("the person was asked once too often")
			return ""
		}
		a := answers[0]
		answers = answers[1:]
		return a
	})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plain.txt"), []byte("the plain text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "gnupg")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	opened, _ := call(t, cs, "pty_open", map[string]any{"command": "bash", "cwd": dir})
	id, _ := opened["sessionId"].(string)
	if sent, res := call(t, cs, "pty_send", map[string]any{"id": id, "data": "export GNUPGHOME=" + home + " GPG_TTY=$(tty)"}); sent["waitReason"] != "prompt" {
		t.Fatalf("the set-up: %s", resultText(res))
	}
	sent, res := call(t, cs, "pty_send", map[string]any{"id": id, "data": "gpg -c -o secret.gpg plain.txt"})
	if sent["waitReason"] != "stdin_read" || sent["inputHidden"] != true || !strings.Contains(fmt.Sprint(sent["screen"]), "Passphrase:") {
		t.Fatalf("gpg's pinentry: %s %v", resultText(res), sent)
	}
	got, res := call(t, cs, "pty_secret", map[string]any{"id": id, "message": "a passphrase for secret.gpg"})
	if res.IsError || got["outcome"] != "entered" || got["asksAgain"] != true || !strings.Contains(fmt.Sprint(got), "re-enter") {
		t.Fatalf("pty_secret into the dialog: %s %v", resultText(res), got)
	}
	got, res = call(t, cs, "pty_secret", map[string]any{"id": id, "message": "the passphrase again"})
	if res.IsError || got["outcome"] != "entered" {
		t.Fatalf("pty_secret into the confirmation: %s", resultText(res))
	}
	sent, res = call(t, cs, "pty_send", map[string]any{"id": id, "data": "gpgconf --kill gpg-agent; gpg --batch --pinentry-mode loopback --passphrase " + passphrase + " -d secret.gpg"})
	if sent["waitReason"] != "prompt" || sent["exitCode"] != float64(0) || !strings.Contains(fmt.Sprint(sent["delta"]), "the plain text") {
		t.Fatalf("opening what gpg wrote: %s", resultText(res))
	}

	// A passphrase gpg finds too short: pinentry warns, with buttons.
	sent, res = call(t, cs, "pty_send", map[string]any{"id": id, "data": "gpg -c -o short.gpg plain.txt"})
	if sent["waitReason"] != "stdin_read" {
		t.Fatalf("gpg's pinentry again: %s", resultText(res))
	}
	got, res = call(t, cs, "pty_secret", map[string]any{"id": id, "message": "a passphrase for short.gpg"})
	if res.IsError || got["outcome"] != "entered" || got["asksAgain"] == true || !strings.Contains(fmt.Sprint(got), "insecure passphrase") {
		t.Fatalf("pty_secret of a short passphrase: %s %v", resultText(res), got)
	}
	_, res = call(t, cs, "pty_secret", map[string]any{"id": id, "message": "the passphrase again"})
	if !res.IsError || !strings.Contains(resultText(res), "with buttons") {
		t.Fatalf("pty_secret into pinentry's warning: %s", resultText(res))
	}
}

// Without a cgroup leaf (--no-cgroup, or an agent in a container whose
// cgroups are read-only) gpg-agent, which forked after it listened, is
// found among the processes the server adopted as a child subreaper: the
// send at pinentry's dialog settles on its read all the same.
func TestGPGsPinentryWithoutCgroups(t *testing.T) {
	needGPG(t)
	p := startStdio(t, io.Discard, "--no-cgroup")
	dir := t.TempDir()
	home := filepath.Join(dir, "gnupg")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.txt"), []byte("the plain text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id, _ := p.call(t, "pty_open", map[string]any{"command": "bash", "cwd": dir})["sessionId"].(string)
	if sent := p.call(t, "pty_send", map[string]any{"id": id, "data": "export GNUPGHOME=" + home + " GPG_TTY=$(tty)"}); sent["waitReason"] != "prompt" {
		t.Fatalf("the set-up: %v", sent)
	}
	sent := p.call(t, "pty_send", map[string]any{"id": id, "data": "gpg -c -o secret.gpg plain.txt", "quietMs": 5000})
	if sent["waitReason"] != "stdin_read" || sent["inputHidden"] != true || !strings.Contains(fmt.Sprint(sent["screen"]), "Passphrase:") {
		t.Fatalf("gpg's pinentry without cgroups: %v", sent)
	}
}

// needGPG skips the test without gpg, gpg-agent and pinentry-curses, and
// fails it in CI.
func needGPG(t *testing.T) {
	t.Helper()
	for _, prog := range []string{"gpg", "gpg-agent", "pinentry-curses"} {
		if _, err := exec.LookPath(prog); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing (make deps installs it): %v", prog, err)
			}
			t.Skipf("%s is missing (make deps installs it): %v", prog, err)
		}
	}
}
