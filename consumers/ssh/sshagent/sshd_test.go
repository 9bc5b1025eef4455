package sshagent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshagent"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	"github.com/ptyseam/ptyseam/testharness"
)

// TestConformanceSSHD runs the backend conformance suite on sessions of
// an agent uploaded to and started on a real sshd; every sub-test also
// lists the far side's processes after its close.
func TestConformanceSSHD(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	tg := target(t, srv)
	warmCache(t, tg)
	bin := childrenForAll(t)
	testharness.TestBackend(t, testharness.BackendHarness{
		Children: bin,
		New: func(t *testing.T) core.Backend {
			d, _ := dialer(t, sshagent.Options{})
			m := &remotetest.Markers{Backend: d.Backend("remote-ssh", remote.AgentExec), Options: tg}
			m.CheckFarSideEmpty(t)
			return m
		},
	})
}

// TestTerminalsSSHD runs the seam conformance suite on a core.Service
// whose "exec" type runs on an agent over a real sshd.
func TestTerminalsSSHD(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	tg := target(t, srv)
	warmCache(t, tg)
	bin := childrenForAll(t)
	testharness.TestTerminals(t, testharness.TerminalsHarness{
		Children: bin,
		New: func(t *testing.T) core.Terminals {
			d, _ := dialer(t, sshagent.Options{})
			m := &remotetest.Markers{Backend: d.Backend("exec", remote.AgentExec), Options: tg}
			m.CheckFarSideEmpty(t)
			return newService(t, m)
		},
	})
}

// shellSSHD returns a service whose "shell" type runs on an agent over a
// real sshd, and a fresh shell.
func shellSSHD(t *testing.T, d *sshagent.Dialer, tg *ssh.Target) (*core.Service, *core.Owner, core.SessionID, *remotetest.Markers) {
	t.Helper()
	warmCache(t, tg)
	m := &remotetest.Markers{Backend: d.Backend("shell", remote.AgentShell), Options: tg}
	m.CheckFarSideEmpty(t)
	svc := newService(t, m)
	owner := core.NewOwner("sshagent-test")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	res, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	return svc, owner, res.ID, m
}

// TestSettleSSHD: over ssh, `true` settles on the prompt marker and a
// Python REPL's `6*7` on stdin_read, as locally (the ssh backend alone
// can only wait for silence there).
func TestSettleSSHD(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	d, _ := dialer(t, sshagent.Options{})
	svc, owner, id, _ := shellSSHD(t, d, target(t, srv))
	res := remotetest.Send(t, svc, owner, id, "true")
	remotetest.WantSettled(t, "true", res, core.WaitPrompt, "")
	if res.ExitCode == nil || *res.ExitCode != 0 {
		t.Fatalf("true: exit code %v", res.ExitCode)
	}
	remotetest.WantSettled(t, "whoami", remotetest.Send(t, svc, owner, id, "whoami"), core.WaitPrompt, sshdtest.User)
	remotetest.WantSettled(t, "python3 -q", remotetest.Send(t, svc, owner, id, "python3 -q"), core.WaitStdinRead, ">>> ")
	remotetest.WantSettled(t, "6*7", remotetest.Send(t, svc, owner, id, "6*7"), core.WaitStdinRead, "42")
	remotetest.WantSettled(t, "exit()", remotetest.Send(t, svc, owner, id, "exit()"), core.WaitPrompt, "")
}

// escapee leaves a process behind the session's back: setsid -f
// double-forks it into a new session, and it ignores SIGTERM and SIGHUP.
const escapee = `setsid -f sh -c 'trap "" TERM HUP; exec sleep 1000' </dev/null >/dev/null 2>&1; echo started`

// TestCloseSSHD: Close over ssh ends the whole tree on the far side, a
// setsid escapee ignoring TERM and HUP included, and the agent of the
// target exits with its last session.
func TestCloseSSHD(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	d, _ := dialer(t, sshagent.Options{})
	svc, owner, id, m := shellSSHD(t, d, target(t, srv))
	remotetest.WantSettled(t, "escapee", remotetest.Send(t, svc, owner, id, escapee), core.WaitPrompt, "started")
	before := m.WaitFarSide(t, 2, waitLimit)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if _, err := svc.Close(ctx, owner, id, "test"); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if pids := m.FarSide(); len(pids) > 0 {
		t.Fatalf("after Close the far side still runs %v (before: %v)", pids, before)
	}
	// The idle agent, its channel and the connection end: sshd keeps
	// only its listener.
	deadline := time.Now().Add(waitLimit)
	for {
		var what []string
		for _, pid := range srv.Remaining() {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			if !strings.Contains(string(b), "[listener]") {
				what = append(what, fmt.Sprintf("%d %q", pid, b))
			}
		}
		if len(what) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd still runs %v after the last session closed", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestConnectionDroppedSSHD: the ssh connection dies mid-send (its sshd
// processes are killed, the agent is not). The send and the session end
// promptly with remote.ErrConnectionLost, and the agent, its stream gone,
// closes everything it started and exits.
func TestConnectionDroppedSSHD(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	d, _ := dialer(t, sshagent.Options{})
	tg := target(t, srv)
	warmCache(t, tg)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := d.Connect(ctx, tg)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	m := &remotetest.Markers{Backend: c.Backend("shell", remote.AgentShell)}
	m.CheckFarSideEmpty(t)
	svc := newService(t, m)
	owner := core.NewOwner("sshagent-test")
	sh, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	remotetest.WantSettled(t, "escapee", remotetest.Send(t, svc, owner, sh.ID, escapee), core.WaitPrompt, "started")
	op, err := svc.Send(ctx, owner, sh.ID, core.SendRequest{Data: "sleep 1000", QuietWindow: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	m.WaitFarSide(t, 3, waitLimit)

	killConnection(t, c.Info().PID)

	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.WaitReason != core.WaitSessionExit || res.Status.Reason != "connection lost" {
		t.Fatalf("the send settled as %s, status %v; want session_exit, connection lost", res.WaitReason, res.Status)
	}
	_, err = svc.Write(ctx, owner, sh.ID, []byte("true\r"))
	if !errors.Is(err, remote.ErrConnectionLost) {
		t.Fatalf("a write after the drop: %v, want remote.ErrConnectionLost", err)
	}
	waitGone(t, c.Info().PID)
	if pids := m.FarSide(); len(pids) > 0 {
		t.Fatalf("after the drop the far side still runs %v", pids)
	}
}

// TestUploadCachedAndChecked: the first connect uploads the agent to the
// user's cache; the next finds it there; a cached file changed since is
// detected by its SHA-256 and uploaded again. The far side's cache is
// this test's own (XDG_CACHE_HOME): the one this process's other servers
// share is warm, and emptying it could pull the agent from under another
// test.
func TestUploadCachedAndChecked(t *testing.T) {
	cache := sshdtest.UserDir(t)
	srv := sshdtest.Start(t, sshdtest.Options{Env: []string{"XDG_CACHE_HOME=" + cache}})
	tg := target(t, srv)
	logs := &logCount{}
	d, _ := dialer(t, sshagent.Options{Logger: slogNew(logs)})
	connect := func() *remote.Conn {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		start := time.Now()
		c, err := d.Connect(ctx, tg)
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		t.Logf("connected in %v", time.Since(start))
		return c
	}
	c := connect()
	if n := logs.count("uploaded the agent"); n != 1 {
		t.Fatalf("first connect: %d uploads, want 1", n)
	}
	_ = c.Close()
	c = connect()
	if n := logs.count("uploaded the agent"); n != 1 {
		t.Fatalf("second connect: %d uploads, want still 1", n)
	}
	_ = c.Close()
	cached := filepath.Join(cache, "ptyseam", cachedName(t))
	if _, err := os.Stat(cached); err != nil {
		t.Fatalf("the agent is not cached where the far side's XDG_CACHE_HOME says: %v", err)
	}
	// Replaced, not written in place: the agent of the connection just
	// closed may still be running from the file on a loaded machine (Close
	// does not wait for the far side's exit), and a write into a running
	// executable fails with ETXTBSY, which a loaded run hit.
	tampered := cached + ".tampered"
	if err := os.WriteFile(tampered, []byte("#!/bin/sh\necho tampered\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tampered, cached); err != nil {
		t.Fatal(err)
	}
	c = connect()
	if n := logs.count("uploaded the agent"); n != 2 {
		t.Fatalf("after tampering: %d uploads, want 2", n)
	}
	_ = c.Close()
}

// TestAgentErrorsSSHD: a far side with no binary for its platform fails
// with remote.ErrAgentArch naming how to build one; an agent path that is
// not there fails with remote.ErrAgentMissing carrying the shell's words.
func TestAgentErrorsSSHD(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	tg := target(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()

	d, _ := dialer(t, sshagent.Options{Binaries: map[string]string{"linux/riscv64": "/nonexistent"}})
	_, err := d.Connect(ctx, tg)
	var ae *remote.AgentError
	if !errors.Is(err, remote.ErrAgentArch) || !errors.As(err, &ae) || !strings.Contains(ae.Msg, "GOARCH=") {
		t.Fatalf("no binary for the platform: %v", err)
	}
	t.Log(err)

	d, _ = dialer(t, sshagent.Options{RemotePath: "/nonexistent/ptyseam"})
	_, err = d.Connect(ctx, tg)
	if !errors.Is(err, remote.ErrAgentMissing) || !errors.As(err, &ae) || !strings.Contains(ae.Output, "nonexistent") {
		t.Fatalf("a missing agent: %v", err)
	}
	t.Log(err)

	// Through the backend, the spawn fails with SPAWN_FAILED and the cause
	// stays matchable.
	svc := newService(t, d.Backend("shell", remote.AgentShell))
	_, err = svc.Spawn(ctx, core.NewOwner("x"), core.SpawnRequest{Type: "shell", Options: tg})
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Code != core.CodeSpawnFailed || !errors.Is(err, remote.ErrAgentMissing) {
		t.Fatalf("spawn: %v", err)
	}
}
