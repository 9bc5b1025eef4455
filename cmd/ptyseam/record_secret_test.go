package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
)

// recordedService returns a service whose every session a recorder
// records; both end with the test.
func recordedService(t *testing.T) (*core.Service, *record.Recorder) {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	rec, err := record.New(record.Options{Dir: t.TempDir(), All: true, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	svc := core.New(core.Options{Logger: log, OnSpawn: rec.OnSpawn, OnEvent: rec.OnEvent})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		rec.Close()
	})
	return svc, rec
}

// outputWatch reads a session's output through a tap of its own.
type outputWatch struct {
	tap *core.Tap
	out strings.Builder
}

func watchOutput(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID) *outputWatch {
	t.Helper()
	tap, err := svc.Tap(owner, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tap.Close)
	return &outputWatch{tap: tap}
}

// waitFor waits until the output after the previous match holds want.
func (w *outputWatch) waitFor(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	for !strings.Contains(w.out.String(), want) {
		b, err := w.tap.Next(ctx)
		w.out.Write(b)
		if err != nil {
			t.Fatalf("waiting for %q: %v; output:\n%q", want, err, w.out.String())
		}
	}
	_, rest, _ := strings.Cut(w.out.String(), want)
	w.out.Reset()
	w.out.WriteString(rest)
}

// typeKeys writes s one key at a time, at a person's pace.
func typeKeys(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner, id core.SessionID, s string) {
	t.Helper()
	for _, k := range s {
		if _, err := svc.Write(ctx, owner, id, []byte(string(k))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// checkNoSecrets fails the test when a recording holds any of secrets (or
// their last 6 characters) or records fewer than minHidden inputs as
// hidden.
func checkNoSecrets(t *testing.T, rec *record.Recorder, id core.SessionID, path string, minHidden int, secrets ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := rec.Wait(ctx, id); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if strings.Contains(string(raw), s) || strings.Contains(string(raw), s[len(s)-6:]) {
			t.Fatalf("the secret %q reached the recording:\n%s", s, raw)
		}
	}
	if n := strings.Count(string(raw), `"i", "`+record.HiddenInput+`"`); n < minHidden {
		t.Fatalf("%d inputs recorded as hidden, want at least %d:\n%s", n, minHidden, raw)
	}
}

// loopbackKey writes a fresh key the test sshd accepts, and its
// known_hosts, and returns their paths and the server.
func loopbackKey(t *testing.T) (srv *sshdtest.Server, key, knownHosts string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	srv = sshdtest.Start(t, sshdtest.Options{NoPassword: true, AuthorizedKeys: []gossh.PublicKey{signer.PublicKey()}})
	blk, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	key, knownHosts = filepath.Join(tmp, "id_ed25519"), filepath.Join(tmp, "known_hosts")
	if err := os.WriteFile(key, pem.EncodeToMemory(blk), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := srv.WriteKnownHosts(knownHosts); err != nil {
		t.Fatal(err)
	}
	return srv, key, knownHosts
}

// A secret answered to `read -rs` on the far side of an ssh typed in a
// recorded local terminal (the local terminal is in raw mode for ssh: its
// echo flag says nothing of the far side's) stays out of the recording,
// sent whole by the model or typed key by key; the commands the far side
// echoes are recorded.
func TestRecordingKeepsOutSecretsReadAcrossSSH(t *testing.T) {
	srv, key, kh := loopbackKey(t)
	svc, rec := recordedService(t)
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeShell})
	if err != nil {
		t.Fatal(err)
	}
	w := watchOutput(t, svc, owner, s.ID)
	write := func(data string) {
		t.Helper()
		if _, err := svc.Write(ctx, owner, s.ID, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	write(fmt.Sprintf("ssh -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s -i %s -p %d %s@%s\r",
		kh, key, srv.Port, srv.User, srv.Host))
	w.waitFor(t, ctx, srv.Host+"\r\n") // the command's own echo
	w.waitFor(t, ctx, "$ ")            // the far side's prompt
	write("echo far-$((6*7))\r")
	w.waitFor(t, ctx, "far-42")
	secrets := []string{"Across-SSH-Whole-0083", "Across-SSH-Typed-0097"}
	for i, sec := range secrets {
		// Echo is off on the far side before reading-N shows: keys typed
		// from then on are never echoed there, even before read begins.
		write(fmt.Sprintf("stty -echo; echo reading-$((%d+1)); read -rs pw; stty echo; echo \"got ${#pw} chars\"\r", i))
		w.waitFor(t, ctx, fmt.Sprintf("reading-%d", i+1))
		if i == 0 {
			write(sec + "\r")
		} else {
			typeKeys(t, ctx, svc, owner, s.ID, sec+"\r")
		}
		w.waitFor(t, ctx, fmt.Sprintf("got %d chars", len(sec)))
	}
	write("exit\r")
	w.waitFor(t, ctx, "closed.")
	write("echo local-$((6*7))\r")
	w.waitFor(t, ctx, "local-42")
	path := rec.Path(s.ID)
	if _, err := svc.Close(ctx, owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
	checkNoSecrets(t, rec, s.ID, path, 1+len(secrets[1]), secrets...)
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"i", "echo far-$((6*7))\r"`) {
		t.Fatalf("a command the far side echoed was not recorded:\n%s", raw)
	}
}

// A secret answered to `read -rs` on a --remote-hosts target, relayed
// over ssh or through the ptyseam agent (the local side has no terminal
// whose echo it could read), stays out of the recording.
func TestRecordingKeepsOutSecretsOnRemoteTargets(t *testing.T) {
	srv, key, kh := loopbackKey(t)
	bin := serverBinary(t)
	if err := os.Chmod(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	prev := agentBinary
	agentBinary = func() (string, error) { return bin, nil }
	t.Cleanup(func() { agentBinary = prev })
	hosts, _ := json.Marshal(map[string]any{"hosts": map[string]any{
		"relayed": map[string]any{"host": srv.Host, "port": srv.Port, "user": srv.User,
			"identityFiles": []string{key}, "knownHostsFiles": []string{kh}},
		"agent": map[string]any{"host": srv.Host, "port": srv.Port, "user": srv.User,
			"identityFiles": []string{key}, "knownHostsFiles": []string{kh}, "ptyseamAgent": true},
	}})
	hostsFile := filepath.Join(t.TempDir(), "hosts.json")
	if err := os.WriteFile(hostsFile, hosts, 0o600); err != nil {
		t.Fatal(err)
	}
	svc, rec := recordedService(t)
	targets, drop, err := remoteTargets(config{RemoteHosts: hostsFile}, svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	for _, name := range []string{"relayed", "agent"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			tg := targets[name]
			owner := core.NewOwner("model")
			s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: tg.Backend, Options: tg.Options})
			if err != nil {
				t.Fatalf("Spawn: %v", err)
			}
			w := watchOutput(t, svc, owner, s.ID)
			sendQuiet := senderTo(t, ctx, svc, owner, s.ID)
			send := func(data string) core.SendResult { return sendQuiet(data, time.Second) }
			secrets := []string{"Remote-" + name + "-Whole-0101", "Remote-" + name + "-Typed-0113"}
			for i, sec := range secrets {
				send(fmt.Sprintf("stty -echo; echo reading-$((%d+1)); read -rs pw; stty echo; echo \"got ${#pw} chars\"", i))
				w.waitFor(t, ctx, fmt.Sprintf("reading-%d", i+1))
				if i == 0 {
					if res := send(sec); !strings.Contains(res.Delta, fmt.Sprintf("got %d chars", len(sec))) {
						t.Fatalf("answer: %q", res.Delta)
					}
					continue
				}
				typeKeys(t, ctx, svc, owner, s.ID, sec+"\r")
				// With its line end: the next command's echo then starts
				// on the line it is typed on (a recorder judges it there).
				w.waitFor(t, ctx, fmt.Sprintf("got %d chars\r\n", len(sec)))
			}
			if res := send("echo after-$((6*7))"); !strings.Contains(res.Delta, "after-42") {
				t.Fatalf("after: %q", res.Delta)
			}
			path := rec.Path(s.ID)
			if _, err := svc.Close(ctx, owner, s.ID, "test"); err != nil {
				t.Fatal(err)
			}
			checkNoSecrets(t, rec, s.ID, path, 1+len(secrets[1]), secrets...)
			raw, _ := os.ReadFile(path)
			if !strings.Contains(string(raw), `"i", "echo after-$((6*7))\r"`) {
				t.Fatalf("a command the remote shell echoed was not recorded:\n%s", raw)
			}
		})
	}
}
