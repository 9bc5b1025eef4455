package remote_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
)

// waitLimit bounds every wait for behaviour in the tests: a hang guard,
// not a timing assertion (testenv.HangBound, the workspace's one bound).
const waitLimit = testenv.HangBound

// agentBinary is the slim `ptyseam-agent` binary the tests run as the agent.
func agentBinary(t testing.TB) string { return remotetest.Binary(t) }

// pipeStream is the host's end of two pipes to an agent process.
type pipeStream struct {
	r *os.File // the agent's stdout
	w *os.File // the agent's stdin
}

func (p *pipeStream) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipeStream) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p *pipeStream) Close() error {
	err := p.w.Close()
	if e := p.r.Close(); err == nil {
		err = e
	}
	return err
}

// agentProc is a `ptyseam agent` subprocess on pipes.
type agentProc struct {
	cmd    *exec.Cmd
	stream *pipeStream
	done   chan struct{}
	err    error
	stderr *lockedBuffer
}

// startAgent runs `ptyseam agent` with args on two pipes. Cleanup kills it
// if a test left it running.
func startAgent(t testing.TB, args ...string) *agentProc {
	t.Helper()
	return startProc(t, append([]string{agentBinary(t), "agent"}, args...)...)
}

// startProc runs argv on two pipes, as startAgent runs the agent.
func startProc(t testing.TB, argv ...string) *agentProc {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	a := &agentProc{stream: &pipeStream{r: outR, w: inW}, done: make(chan struct{}), stderr: &lockedBuffer{}}
	a.cmd = exec.Command(argv[0], argv[1:]...)
	a.cmd.Stdin, a.cmd.Stdout, a.cmd.Stderr = inR, outW, a.stderr
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	go func() {
		a.err = a.cmd.Wait()
		close(a.done)
	}()
	t.Cleanup(func() {
		select {
		case <-a.done:
		default:
			_ = a.cmd.Process.Kill()
			<-a.done
		}
		_ = a.stream.Close()
		if t.Failed() {
			t.Logf("agent stderr: %s", a.stderr.String())
		}
	})
	return a
}

// wait waits for the agent to exit.
func (a *agentProc) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-a.done:
		return a.err
	case <-time.After(waitLimit):
		t.Fatalf("the agent did not exit; stderr: %s", a.stderr.String())
		return nil
	}
}

// connectPipe starts an agent and connects to it; cleanup closes the Conn.
func connectPipe(t *testing.T) (*remote.Conn, *agentProc) {
	t.Helper()
	a := startAgent(t)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, err := remote.Connect(ctx, a.stream)
	if err != nil {
		t.Fatalf("Connect: %v (agent stderr: %s)", err, a.stderr.String())
	}
	t.Cleanup(func() {
		_ = c.Close()
		// The agent exits once its stream ended and it closed everything.
		if err := a.wait(t); err != nil {
			t.Errorf("agent exit: %v; stderr: %s", err, a.stderr.String())
		}
	})
	return c, a
}

type lockedBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

var _ io.Writer = (*lockedBuffer)(nil)

// markers lists a backend's sessions' processes on the far side.
type markers = remotetest.Markers

func randomHex(n int) string { return remotetest.RandomHex(n) }

// newService returns a service with b registered; cleanup shuts it down.
func newService(t *testing.T, b core.Backend) *core.Service { return remotetest.NewService(t, b) }

// startAgentB is startAgent for a benchmark.
func startAgentB(b *testing.B) *agentProc { return startAgent(b) }

// envInt reads a positive integer knob from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// spawnPrinting spawns req on an agent's exec backend over a pipe, closes
// it at the end of the test, and reads its output until it printed want.
func spawnPrinting(t *testing.T, req core.BackendRequest, want string) (core.BackendSession, context.Context) {
	t.Helper()
	c, _ := connectPipe(t)
	b := c.Backend("exec", remote.AgentExec)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	if req.Size == (core.Size{}) {
		req.Size = core.DefaultSize
	}
	s, err := b.Spawn(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	var out []byte
	buf := make([]byte, 4096)
	for !bytes.Contains(out, []byte(want)) {
		n, err := s.Read(buf)
		if err != nil {
			t.Fatalf("read %q: %v", out, err)
		}
		out = append(out, buf[:n]...)
	}
	return s, ctx
}
