package bench

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/docker"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshagent"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/remote"
)

// staticAgent builds the slim agent (remote/cmd/ptyseam-agent) without
// cgo once per benchmark binary (removed by TestMain): the agent every
// remote target runs, a container included.
var staticAgent = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "ptyseam-bench-agent-")
	if err != nil {
		return "", err
	}
	builtDirs.add(dir)
	bin := filepath.Join(dir, "ptyseam-agent")
	cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "github.com/ptyseam/ptyseam/remote/cmd/ptyseam-agent")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{err: err, out: string(out)}
	}
	// The sshd test user reads it through the upload; the engine mounts it.
	for _, p := range []string{dir, bin} {
		if err := os.Chmod(p, 0o755); err != nil {
			return "", err
		}
	}
	return bin, nil
})

// settleTarget is one place a shell session runs: a service with a
// "shell" type, and the spawn request's Options there.
type settleTarget struct {
	name    string
	svc     *core.Service
	options any
	id      core.SessionID
	prompt  []time.Duration
	repl    []time.Duration
}

// BenchmarkSettleTargets measures, in one run with the samples
// interleaved, a send of `true` to an interactive bash settling on its
// prompt and a Python REPL's `6*7` settling on stdin_read on every target:
// a local shell session, an agent over a pipe, an agent over ssh to a
// real sshd on loopback, and the agent inside a container on a private
// dockerd (new container from the test image, the host's /usr mounted
// read-only for python3, network none). It reports each target's p50 and
// its ratio to local. PTYSEAM_BENCH_TARGETS_N sets the `true` samples per
// target (default 300; a fifth as many `6*7`).
func BenchmarkSettleTargets(b *testing.B) {
	n := envInt("PTYSEAM_BENCH_TARGETS_N", 300)
	agent, err := staticAgent()
	if err != nil {
		b.Fatal(err)
	}
	targets := []*settleTarget{
		{name: "local", svc: targetService(b, localpty.NewShell(localpty.ShellOptions{}))},
		pipeTarget(b, agent),
		sshTarget(b, agent),
		dockerTarget(b, agent),
	}
	ctx := context.Background()
	owner := core.NewOwner("bench")
	for _, tg := range targets {
		s, err := tg.svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell", Options: tg.options})
		if err != nil {
			b.Fatalf("%s: spawn: %v", tg.name, err)
		}
		tg.id = s.ID
	}
	send := func(tg *settleTarget, line string, want core.WaitReason) time.Duration {
		start := time.Now()
		op, err := tg.svc.Send(ctx, owner, tg.id, core.SendRequest{Data: line, QuietWindow: 10 * time.Second})
		if err != nil {
			b.Fatalf("%s: %v", tg.name, err)
		}
		res, err := op.Wait(ctx)
		if err != nil {
			b.Fatalf("%s: %v", tg.name, err)
		}
		if res.WaitReason != want {
			b.Fatalf("%s: %q settled as %s, want %s: %q", tg.name, line, res.WaitReason, want, res.Delta)
		}
		return time.Since(start)
	}
	for b.Loop() {
		for range n {
			for _, tg := range targets {
				tg.prompt = append(tg.prompt, send(tg, "true", core.WaitPrompt))
			}
		}
		for _, tg := range targets {
			send(tg, "python3 -q", core.WaitStdinRead)
		}
		for range max(n/5, 1) {
			for _, tg := range targets {
				tg.repl = append(tg.repl, send(tg, "6*7", core.WaitStdinRead))
			}
		}
		for _, tg := range targets {
			send(tg, "exit()", core.WaitPrompt)
		}
	}
	local := targets[0]
	for _, tg := range targets {
		b.ReportMetric(ms(percentile(tg.prompt, 50)), tg.name+"-true-p50-ms")
		b.ReportMetric(ms(percentile(tg.repl, 50)), tg.name+"-py-p50-ms")
		if tg != local {
			b.ReportMetric(float64(percentile(tg.prompt, 50))/float64(percentile(local.prompt, 50)), tg.name+"/local-true-p50")
			b.ReportMetric(float64(percentile(tg.repl, 50))/float64(percentile(local.repl, 50)), tg.name+"/local-py-p50")
		}
	}
}

// targetService is a service with backend registered, shut down when the
// benchmark ends (before the backend's own cleanups, registered earlier).
func targetService(b *testing.B, backend core.Backend) *core.Service {
	b.Helper()
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if _, err := svc.Register(backend); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			b.Errorf("shutdown: %v", err)
		}
	})
	return svc
}

// pipeTarget runs `ptyseam agent` on two pipes and connects to it.
func pipeTarget(b *testing.B, agent string) *settleTarget {
	cmd := exec.Command(agent, "agent")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := remote.Connect(ctx, pipeRW{stdout, stdin})
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = c.Close()
		// The agent exits once its stream ended and it closed everything.
		if err := cmd.Wait(); err != nil {
			b.Errorf("agent exit: %v", err)
		}
	})
	return &settleTarget{name: "pipe", svc: targetService(b, c.Backend("shell", remote.AgentShell))}
}

// pipeRW is the host's end of an agent's stdin and stdout.
type pipeRW struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p pipeRW) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeRW) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeRW) Close() error {
	err := p.w.Close()
	if e := p.r.Close(); err == nil {
		err = e
	}
	return err
}

// sshTarget starts sshd on loopback and runs the agent there, uploaded
// on the first spawn.
func sshTarget(b *testing.B, agent string) *settleTarget {
	srv := sshdtest.Start(b, sshdtest.Options{})
	kh := filepath.Join(b.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		b.Fatal(err)
	}
	tg := &ssh.Target{Host: srv.Host, Port: srv.Port, User: srv.User, Auth: ssh.Auth{Password: srv.Password},
		HostKeys: ssh.HostKeyPolicy{KnownHostsFiles: []string{kh}}}
	sb := ssh.NewBackend(ssh.BackendOptions{Logger: slog.New(slog.DiscardHandler)})
	d := sshagent.New(sb, sshagent.Options{Binaries: map[string]string{runtime.GOOS + "/" + runtime.GOARCH: agent},
		Logger: slog.New(slog.DiscardHandler)})
	b.Cleanup(func() { _ = d.Close() })
	return &settleTarget{name: "ssh", svc: targetService(b, d.Backend("shell", remote.AgentShell)), options: tg}
}

// dockerTarget starts a private dockerd (stopped by TestMain) and runs
// every session on the agent inside a new container.
func dockerTarget(b *testing.B, agent string) *settleTarget {
	d := dockertest.Shared(b)
	db, err := docker.NewBackend(docker.BackendOptions{Host: d.Host, AgentBinary: agent, AgentMount: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	return &settleTarget{name: "docker", svc: targetService(b, typed{db, "shell"}),
		options: &docker.Target{Image: d.Image, Mounts: []docker.Mount{{Source: "/usr", Target: "/usr", ReadOnly: true}}}}
}

// typed registers a backend under another type name.
type typed struct {
	core.Backend
	typ string
}

func (t typed) Type() string { return t.typ }
