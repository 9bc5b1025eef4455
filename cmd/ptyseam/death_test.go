package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/testharness"
)

// The server's own death: whatever ends it (a signal, a broken pipe, or
// SIGKILL and the next start), no process it started may survive, not even
// a setsid daemon with a cleared environment (which carries neither the
// session marker nor the test run's marker: it is found by its argv).

var (
	serverBinOnce sync.Once
	serverBin     string
	serverBinErr  error
)

// serverBinary builds ptyseam once per test binary into a
// testharness.BuildDir (removed by Cleanup, which RunMarked runs). Every
// test that runs the server or uploads it as an agent shares this one
// file and only reads it: a link of the command costs several seconds of
// CPU (tens of seconds of wall time on a loaded machine).
func serverBinary(t *testing.T) string {
	t.Helper()
	serverBinOnce.Do(func() {
		dir, err := testharness.BuildDir("ptyseam-")
		if err != nil {
			serverBinErr = err
			return
		}
		serverBin = filepath.Join(dir, "ptyseam")
		if out, err := exec.Command("go", "build", "-o", serverBin, ".").CombinedOutput(); err != nil {
			serverBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if serverBinErr != nil {
		t.Fatal(serverBinErr)
	}
	return serverBin
}

// escapeTag is the argv[0] of this run's env-cleared daemons.
func escapeTag() string {
	return "ptyseam-escapee-" + strings.TrimPrefix(runMarker, "PTYSEAM_TEST_RUN=")
}

// escapees lists live processes whose command line holds escapeTag.
func escapees() []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	tag := []byte(escapeTag())
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		cmd, err := os.ReadFile(d + "/cmdline")
		if err == nil && bytes.Contains(cmd, tag) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// tortures are typed into bash sessions: a double fork out of the
// session, a program ignoring SIGTERM and SIGHUP, and a setsid daemon whose
// environment is cleared (no marker) and whose streams are not the
// terminal.
func tortures() []string {
	return []string{
		"(setsid sh -c 'sleep 1000 & sleep 1000' &) ; sleep 0.05",
		`trap "" TERM HUP; sh -c 'trap "" TERM HUP; sleep 1000' &`,
		"(setsid env -i bash -c 'exec -a " + escapeTag() + " sleep 1000' </dev/null >/dev/null 2>&1 &) ; sleep 0.1",
	}
}

// toolCaller calls one tool and returns its structured result.
type toolCaller func(t *testing.T, name string, args map[string]any) map[string]any

// populate opens one bash session per torture and a background job, and
// checks that they run.
func populate(t *testing.T, call toolCaller) {
	t.Helper()
	for _, torture := range tortures() {
		id, _ := call(t, "pty_open", map[string]any{"command": "bash"})["sessionId"].(string)
		call(t, "pty_send", map[string]any{"id": id, "data": torture})
	}
	call(t, "bg_launch", map[string]any{"command": "sh", "args": []string{"-c", "sleep 1000 & sleep 1000"}})
	// The sends settle on the prompt; the daemons finish starting on
	// their own time.
	deadline := time.Now().Add(testenv.HangBound)
	for len(escapees()) == 0 || len(survivors(runMarker)) < 6 {
		if time.Now().After(deadline) {
			t.Fatalf("the programs did not start: %d escapees, %d marked processes", len(escapees()), len(survivors(runMarker)))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// leftovers describes what survives: marked processes other than except,
// and escapees.
func leftovers(except ...int) string {
	var left []int
	for _, pid := range survivors(runMarker) {
		if !containsInt(except, pid) {
			left = append(left, pid)
		}
	}
	left = append(left, escapees()...)
	if len(left) == 0 {
		return ""
	}
	return describe(left)
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// requireNothingLeft waits until no process of the run is left, except the
// given pids. The processes end on the kernel's time after the server's
// exit (and, for escapees, after the next server's start): the bound only
// ends a hang.
func requireNothingLeft(t *testing.T, what string, except ...int) {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	for {
		left := leftovers(except...)
		if left == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: processes survived: %s", what, left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killLeftovers ends whatever a failed test left, so that the next test
// starts clean.
func killLeftovers() {
	for _, pid := range append(survivors(runMarker), escapees()...) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// stdioProc is `ptyseam mcp` over stdio, driven by raw JSON-RPC lines.
type stdioProc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  io.ReadCloser
	rd   *bufio.Reader
	next int
	exit *exited
}

// exited is a started process's end: done closes when Wait returned err.
type exited struct {
	done chan struct{}
	err  error
}

func watchExit(cmd *exec.Cmd) *exited {
	e := &exited{done: make(chan struct{})}
	go func() { e.err = cmd.Wait(); close(e.done) }()
	return e
}

func startStdio(t *testing.T, stderr io.Writer, args ...string) *stdioProc {
	t.Helper()
	cmd := exec.Command(serverBinary(t), append([]string{"mcp", "--structured-results"}, args...)...)
	cmd.Env = os.Environ()
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &stdioProc{cmd: cmd, in: in, out: out, rd: bufio.NewReader(out), exit: watchExit(cmd)}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.exit.done
		killLeftovers()
	})
	initialize(t, in, p.rd)
	return p
}

func (p *stdioProc) call(t *testing.T, name string, args map[string]any) map[string]any {
	t.Helper()
	p.next++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.next, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	sendLine(t, p.in, string(b))
	a := readAnswer(t, p.rd)
	var res struct {
		IsError    bool           `json:"isError"`
		Structured map[string]any `json:"structuredContent"`
		Content    []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if a.Error != nil || json.Unmarshal(a.Result, &res) != nil || res.IsError {
		t.Fatalf("%s: %+v %s", name, a.Error, a.Result)
	}
	return res.Structured
}

// waitExit waits for the process to exit and returns how long it took.
// How fast it exits is load, not a promise (over HTTP, httpStopTimeout
// bounds it): HangBound only ends a hang.
func waitExit(t *testing.T, exit *exited) (error, time.Duration) {
	t.Helper()
	start := time.Now()
	select {
	case <-exit.done:
		return exit.err, time.Since(start)
	case <-time.After(testenv.HangBound):
		t.Fatalf("the server did not exit within %v", testenv.HangBound)
	}
	return nil, 0
}

// httpProc is `ptyseam mcp --http` with a Go SDK client holding a live
// session (its event stream open).
type httpProc struct {
	cmd   *exec.Cmd
	cs    *mcp.ClientSession
	exit  *exited
	url   string // the server's MCP endpoint
	token string
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func startHTTP(t *testing.T) *httpProc {
	t.Helper()
	token := randomToken()
	return startHTTPWith(t, token, nil, "--token", token)
}

// startHTTPWith starts `ptyseam mcp --http` with args added and env added
// to the test's environment; clients present token.
func startHTTPWith(t *testing.T, token string, env []string, args ...string) *httpProc {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(serverBinary(t), append([]string{"mcp", "--structured-results", "--http", addr, "--log-level", "error"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	return startHTTPCmd(t, cmd, addr, token)
}

// startHTTPCmd starts cmd, a `ptyseam mcp --http addr` command, and
// connects a client presenting token.
func startHTTPCmd(t *testing.T, cmd *exec.Cmd, addr, token string) *httpProc {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "serving MCP over HTTP") {
				close(ready)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	p := &httpProc{cmd: cmd, exit: &exited{done: make(chan struct{})}, url: "http://" + addr + "/", token: token}
	go func() { <-drained; p.exit.err = cmd.Wait(); close(p.exit.done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.exit.done
		killLeftovers()
	})
	select {
	case <-ready:
	case <-time.After(testenv.HangBound):
		t.Fatal("the HTTP server did not start")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "death", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   "http://" + addr + "/",
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	p.cs = cs
	return p
}

func (p *httpProc) call(t *testing.T, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := p.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	m, _ := res.StructuredContent.(map[string]any)
	return m
}

// TestShutdownSignalsLeaveNothing: SIGHUP (the terminal closed, the ssh
// connection dropped), SIGTERM and SIGINT each shut the server down over
// stdio and HTTP with a live MCP session: exit 0, and nothing it started
// survives. Over HTTP the live session's event stream would hold
// http.Server.Shutdown for as long as the client stays (the client here
// stays until the test ends): the server exiting at all is the check; how
// fast it exits is load (its own bound is httpStopTimeout).
func TestShutdownSignalsLeaveNothing(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run("stdio/"+sig.String(), func(t *testing.T) {
			p := startStdio(t, io.Discard, "--log-level", "error")
			populate(t, p.call)
			_ = p.cmd.Process.Signal(sig)
			err, took := waitExit(t, p.exit)
			if err != nil {
				t.Fatalf("exit after %v: %v", sig, err)
			}
			t.Logf("stdio %v: exited 0 in %v", sig, took.Round(time.Millisecond))
			requireNothingLeft(t, sig.String())
		})
		t.Run("http/"+sig.String(), func(t *testing.T) {
			p := startHTTP(t)
			populate(t, p.call)
			_ = p.cmd.Process.Signal(sig)
			err, took := waitExit(t, p.exit)
			if err != nil {
				t.Fatalf("exit after %v with a live MCP session: %v (after %v)", sig, err, took)
			}
			t.Logf("http %v: exited 0 in %v", sig, took.Round(time.Millisecond))
			requireNothingLeft(t, sig.String())
		})
	}
}

// TestBrokenPipesDoNotKill: a host that stops reading the server's stdout
// ends the connection (a write fails with EPIPE), and the server shuts down
// cleanly instead of dying of SIGPIPE; a closed stderr with logging at info
// level does not kill it either, before or at a normal exit.
func TestBrokenPipesDoNotKill(t *testing.T) {
	t.Run("stdout", func(t *testing.T) {
		p := startStdio(t, io.Discard, "--log-level", "error")
		populate(t, p.call)
		_ = p.out.Close()
		// The answer to this call cannot be written.
		sendLine(t, p.in, `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"pty_list","arguments":{}}}`)
		err, took := waitExit(t, p.exit)
		if ee, ok := err.(*exec.ExitError); ok && ee.Sys().(syscall.WaitStatus).Signaled() {
			t.Fatalf("the server died of %v", ee.Sys().(syscall.WaitStatus).Signal())
		}
		t.Logf("stdout closed: exit %v in %v", err, took.Round(time.Millisecond))
		requireNothingLeft(t, "stdout closed")
	})
	t.Run("stderr", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p := startStdio(t, w, "--log-level", "debug")
		_ = w.Close()
		_ = r.Close() // every log line from now on hits a broken pipe
		populate(t, p.call)
		_ = p.in.Close() // a normal end: the client disconnects
		err, took := waitExit(t, p.exit)
		if err != nil {
			t.Fatalf("exit with stderr closed: %v", err)
		}
		t.Logf("stderr closed: exited 0 in %v", took.Round(time.Millisecond))
		requireNothingLeft(t, "stderr closed")
	})
}

// TestSIGKILLLeavesNothing: a server killed with SIGKILL cannot clean up.
// The parent-death signal kills each session's top-level process with it
// at once; what escaped further (double forks, SIGHUP-ignoring programs,
// an env-cleared setsid daemon) is killed by the server's guard, which
// sees the server gone and kills its cgroup leaves.
func TestSIGKILLLeavesNothing(t *testing.T) {
	if _, err := localpty.ReapStaleCgroups(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if !cgroupUsable() {
		t.Skip("no writable cgroup v2 here: a SIGKILLed server's escapees cannot be found (see docs/hardening.md)")
	}
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			var pid int
			var exit *exited
			if transport == "stdio" {
				p := startStdio(t, io.Discard, "--log-level", "error")
				populate(t, p.call)
				pid, exit = p.cmd.Process.Pid, p.exit
			} else {
				p := startHTTP(t)
				populate(t, p.call)
				pid, exit = p.cmd.Process.Pid, p.exit
			}
			before := len(survivors(runMarker)) + len(escapees())
			killed := time.Now()
			_ = syscall.Kill(pid, syscall.SIGKILL)
			<-exit.done
			// The shells die with the server (parent-death signal), the
			// escapees by the server's guard; no next start is needed.
			requireNothingLeft(t, "after SIGKILL")
			t.Logf("%s: %d processes before SIGKILL, 0 left %v after it", transport, before, time.Since(killed).Round(time.Millisecond))
		})
	}
}

// cgroupUsable reports whether a session leaf can be made in this
// process's cgroup v2 (a probe directory).
func cgroupUsable() bool {
	mi, err1 := os.ReadFile("/proc/self/mountinfo")
	cg, err2 := os.ReadFile("/proc/self/cgroup")
	if err1 != nil || err2 != nil {
		return false
	}
	var mount, own string
	for _, l := range strings.Split(string(mi), "\n") {
		if f := strings.Fields(l); strings.Contains(l, " - cgroup2 ") && len(f) > 4 {
			mount = f[4]
		}
	}
	for _, l := range strings.Split(string(cg), "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok {
			own = p
		}
	}
	if mount == "" || own == "" {
		return false
	}
	d, err := os.MkdirTemp(filepath.Join(mount, own), "ptyseam-probe-")
	if err != nil {
		return false
	}
	_ = os.Remove(d)
	return true
}

// TestNoCgroupCloseEndsEnvClearedDaemon: without cgroup v2 (forced here),
// a session's Close finds its processes by scanning /proc; a setsid daemon
// with a cleared environment carries neither the session id nor the
// marker, and is found because the server, a subreaper, adopted it. Close
// may not report success while it lives.
func TestNoCgroupCloseEndsEnvClearedDaemon(t *testing.T) {
	p := startStdio(t, io.Discard, "--log-level", "error", "--no-cgroup")
	for round := range 3 {
		id, _ := p.call(t, "pty_open", map[string]any{"command": "bash"})["sessionId"].(string)
		p.call(t, "pty_send", map[string]any{"id": id, "data": tortures()[2]})
		p.call(t, "pty_send", map[string]any{"id": id, "data": tortures()[0]})
		for deadline := time.Now().Add(testenv.HangBound); len(escapees()) == 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the env-cleared daemon did not start")
			}
		}
		closed := p.call(t, "pty_close", map[string]any{"id": id})
		if closed["closed"] != true {
			t.Fatalf("round %d: pty_close: %v", round, closed)
		}
		if left := leftovers(p.cmd.Process.Pid); left != "" {
			t.Fatalf("round %d: pty_close reported success while processes survive: %s", round, left)
		}
	}
}
