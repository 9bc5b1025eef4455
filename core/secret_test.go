package core_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// A program that prints the secret it read (the phishing of a password
// prompt) shows the mask instead: in results, the scrollback and a tap,
// also when it prints the secret in pieces.
func TestTypeSecretHidesItInTheOutput(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	tap, err := svc.Tap(owner, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var tapped strings.Builder
	tapDone := make(chan struct{})
	go func() {
		defer close(tapDone)
		for {
			b, err := tap.Next(context.Background())
			if err != nil {
				return
			}
			tapped.Write(b)
		}
	}()
	defer func() { tap.Close(); <-tapDone }()

	const secret = "s3cr3t-Zq!"
	if err := svc.TypeSecret(ctxT(t), owner, s.ID, []byte(secret)); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("a secret typed at the shell's prompt: %v", err)
	}
	res := send(t, svc, owner, s.ID, `read -rs -p "Password: " pw; echo "leak:$pw"; printf '%s' "split:${pw:0:4}"; sleep 0.02; printf '%s\n' "${pw:4}"`)
	if res.WaitReason != core.WaitStdinRead {
		t.Fatalf("the prompt settled on %s", res.WaitReason)
	}
	if err := svc.TypeSecret(ctxT(t), owner, s.ID, []byte(secret)); err != nil {
		t.Fatal(err)
	}
	page := func(until string) string {
		t.Helper()
		deadline := time.Now().Add(testenv.HangBound)
		for {
			p, err := svc.Read(owner, s.ID, core.PageRequest{Start: 0, Count: 100})
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(p.Lines, "\n")
			if strings.Contains(text, until) || time.Now().After(deadline) {
				return text
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	page("split:" + core.SecretMask)
	res = send(t, svc, owner, s.ID, `echo "again:$pw"`)
	text := page("again:" + core.SecretMask)
	for _, want := range []string{"leak:" + core.SecretMask, "split:" + core.SecretMask, "again:" + core.SecretMask} {
		if !strings.Contains(text, want) {
			t.Errorf("the scrollback lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, secret) || strings.Contains(res.Delta, secret) {
		t.Fatalf("the secret is in the output:\n%s\n%s", text, res.Delta)
	}
	if _, err := svc.Close(ctxT(t), owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
	<-tapDone
	if !strings.Contains(tapped.String(), "leak:"+core.SecretMask) || strings.Contains(tapped.String(), secret) {
		t.Fatalf("the tap saw:\n%q", tapped.String())
	}
}

// SecretPrompt answers a wrong id, another owner's session and a closed
// session with the typed errors every call gives, and a shell at its
// prompt (its line editor reads keys) with INVALID_ARGUMENT saying so.
func TestSecretPromptRefusals(t *testing.T) {
	svc := newService(t, core.Options{})
	owner, other := core.NewOwner("agent"), core.NewOwner("other")
	s := spawnShell(t, svc, owner)
	if err := svc.SecretPrompt(owner, s.ID); !errors.Is(err, core.ErrInvalidArgument) || !strings.Contains(err.Error(), "not reading a secret") {
		t.Fatalf("a shell at its prompt: %v, want INVALID_ARGUMENT (not reading a secret)", err)
	}
	if err := svc.SecretPrompt(owner, "pty_nosuchsession"); core.CodeOf(err) != core.CodeNoSession {
		t.Fatalf("a wrong id: %v, want NO_SESSION", err)
	}
	if err := svc.SecretPrompt(other, s.ID); core.CodeOf(err) != core.CodeForeignSession {
		t.Fatalf("another owner's session: %v, want FOREIGN_SESSION", err)
	}
	if _, err := svc.Close(ctxT(t), owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
	if err := svc.SecretPrompt(owner, s.ID); core.CodeOf(err) != core.CodeNoSession {
		t.Fatalf("a closed session: %v, want NO_SESSION", err)
	}
}
