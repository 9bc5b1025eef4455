package openssh_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/openssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/testharness"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newService(t *testing.T) (*core.Service, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	svc := testharness.NewLocalService(t, core.Options{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	return svc, logs
}

func TestLoginFirstContactPasswordBanner(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{Banner: "=== ptyseam test banner ===\n"})
	svc, logs := newService(t)
	owner := core.NewOwner("test")
	kh := filepath.Join(t.TempDir(), "known_hosts")
	var questions []openssh.HostKeyQuestion
	var prompts []openssh.Prompt
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	s, err := openssh.Login(ctx, svc, owner, openssh.Options{
		Host: srv.Host, Port: srv.Port, User: srv.User, KnownHostsFile: kh,
		HostKey: func(ctx context.Context, q openssh.HostKeyQuestion) (bool, error) {
			questions = append(questions, q)
			return q.Fingerprint == gossh.FingerprintSHA256(srv.HostKey), nil
		},
		Secrets: func(ctx context.Context, p openssh.Prompt) (string, error) {
			prompts = append(prompts, p)
			return srv.Password, nil
		},
	})
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	if len(questions) != 1 || !s.AcceptedHostKey {
		t.Fatalf("host key questions %+v", questions)
	}
	if len(prompts) != 1 || prompts[0].Kind != openssh.PromptPassword || !strings.HasSuffix(prompts[0].Text, "password: ") {
		t.Fatalf("prompts %+v", prompts)
	}
	if !strings.Contains(s.Transcript, "=== ptyseam test banner ===") {
		t.Fatalf("banner not in transcript: %q", s.Transcript)
	}
	if data, _ := os.ReadFile(kh); !strings.Contains(string(data), "ssh-ed25519") {
		t.Fatalf("known_hosts not written: %q", data)
	}
	// The prompt marker works: a send settles on the remote prompt.
	op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: "whoami"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.WaitReason != core.WaitPrompt || !strings.Contains(res.Delta, sshdtest.User) {
		t.Fatalf("send result %+v", res)
	}
	// The password is nowhere: not in the transcript, the scrollback or the logs.
	page, err := svc.Read(owner, s.ID, core.PageRequest{Count: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"transcript": s.Transcript, "scrollback": page.Text(), "logs": logs.String(), "sshd logs": srv.Logs()} {
		if strings.Contains(text, srv.Password) {
			t.Fatalf("password in %s", what)
		}
	}
	if _, err := svc.Close(ctx, owner, s.ID, "done"); err != nil {
		t.Fatal(err)
	}
}

func TestLoginFailures(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	svc, logs := newService(t)
	owner := core.NewOwner("test")
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	kh := filepath.Join(t.TempDir(), "known_hosts")

	// No policy: the unknown host is refused, with its fingerprint.
	_, err := openssh.Login(ctx, svc, owner, openssh.Options{Host: srv.Host, Port: srv.Port, User: srv.User, KnownHostsFile: kh})
	var uh *sshpkg.UnknownHostError
	if !errors.As(err, &uh) || uh.Fingerprint != gossh.FingerprintSHA256(srv.HostKey) {
		t.Fatalf("err = %v", err)
	}

	// Wrong password: a typed error after one attempt.
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	const wrong = "Wrong-Password-Zz9"
	attempts := 0
	_, err = openssh.Login(ctx, svc, owner, openssh.Options{Host: srv.Host, Port: srv.Port, User: srv.User, KnownHostsFile: kh,
		Secrets: func(ctx context.Context, p openssh.Prompt) (string, error) { attempts++; return wrong, nil }})
	var ae *sshpkg.AuthError
	if !errors.As(err, &ae) || attempts != 1 {
		t.Fatalf("err = %v after %d attempts", err, attempts)
	}
	// Tried says what the login tried, Offered what the server listed.
	if !slices.Equal(ae.Tried, []string{"password"}) || !slices.Contains(ae.Offered, "password") || !slices.Contains(ae.Offered, "publickey") {
		t.Fatalf("auth error tried %q offered %q", ae.Tried, ae.Offered)
	}
	if strings.Contains(err.Error(), wrong) || strings.Contains(logs.String(), wrong) {
		t.Fatal("secret leaked")
	}

	// Changed host key.
	line := strings.Replace(srv.KnownHostsLine(), strings.Fields(srv.KnownHostsLine())[2], fakeKey(t), 1)
	if err := os.WriteFile(kh, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = openssh.Login(ctx, svc, owner, openssh.Options{Host: srv.Host, Port: srv.Port, User: srv.User, KnownHostsFile: kh,
		HostKey: func(context.Context, openssh.HostKeyQuestion) (bool, error) { return true, nil }})
	var hc *sshpkg.HostKeyChangedError
	if !errors.As(err, &hc) || hc.Fingerprint != gossh.FingerprintSHA256(srv.HostKey) {
		t.Fatalf("err = %v", err)
	}
	if list, _ := svc.List(owner); len(list) != 0 {
		t.Fatalf("failed logins left sessions: %+v", list)
	}
}
