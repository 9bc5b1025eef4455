package bench

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
)

// ptyseamBinary builds cmd/ptyseam once per benchmark binary (removed by
// TestMain), or returns PTYSEAM_BENCH_PTYSEAM, a ptyseam binary built
// beforehand (to compare two builds).
var ptyseamBinary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv("PTYSEAM_BENCH_PTYSEAM"); bin != "" {
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "ptyseam-bench-")
	if err != nil {
		return "", err
	}
	builtDirs.add(dir)
	bin := filepath.Join(dir, "ptyseam")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/ptyseam/ptyseam/cmd/ptyseam").CombinedOutput()
	if err != nil {
		return "", &buildError{err: err, out: string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build ptyseam: " + e.err.Error() + "\n" + e.out }

func serverBinary(b *testing.B) string {
	b.Helper()
	bin, err := ptyseamBinary()
	if err != nil {
		b.Fatal(err)
	}
	return bin
}

// connectStdio starts `ptyseam mcp` with args as the client's subprocess
// (the transport an agent host uses) and returns the client session.
func connectStdio(b *testing.B, args ...string) *mcp.ClientSession {
	b.Helper()
	cmd := exec.Command(serverBinary(b), append([]string{"mcp", "--log-level", "error"}, args...)...)
	cmd.Env = os.Environ()
	return connectCommand(b, cmd)
}

// benchClient is the benchmarks' MCP client.
var benchClient = &mcp.Implementation{Name: "bench", Version: "1"}

// connectCommand starts cmd, an MCP server on stdio, as the client's
// subprocess and returns the client session.
func connectCommand(b *testing.B, cmd *exec.Cmd) *mcp.ClientSession {
	b.Helper()
	client := mcp.NewClient(benchClient, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// bearerTransport adds the HTTP bearer token to each request.
type bearerTransport struct{ token string }

func (t bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+t.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP starts `ptyseam mcp --http` on a free loopback port and
// connects the streamable HTTP client to it.
func connectHTTP(b *testing.B) *mcp.ClientSession {
	b.Helper()
	return connectHTTPCommand(b, func(addr, token string) *exec.Cmd {
		cmd := exec.Command(serverBinary(b), "mcp", "--structured-results", "--http", addr, "--token", token, "--log-level", "info")
		cmd.Env = os.Environ()
		return cmd
	})
}

// connectHTTPCommand starts the command server returns for a free
// loopback address and a bearer token, an MCP server that prints "serving
// MCP over HTTP" on stderr once it listens, and connects the streamable
// HTTP client to it with the token.
func connectHTTPCommand(b *testing.B, server func(addr, token string) *exec.Cmd) *mcp.ClientSession {
	b.Helper()
	// A reserved port: one picked free and released could be taken by
	// another process before the server binds it.
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.ReservePort(b))
	var raw [24]byte
	_, _ = rand.Read(raw[:])
	token := hex.EncodeToString(raw[:])
	cmd := server(addr, token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	ready, drained := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), servingHTTP) {
				close(ready)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	b.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-drained
		_ = cmd.Wait()
	})
	select {
	case <-ready:
	case <-drained:
		b.Fatalf("%s exited before serving", cmd)
	case <-time.After(time.Minute):
		b.Fatalf("%s did not start within a minute", cmd)
	}
	client := mcp.NewClient(benchClient, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:   "http://" + addr + "/",
		HTTPClient: &http.Client{Transport: bearerTransport{token}},
	}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// callTool calls a tool and fails the benchmark on a transport or tool
// error.
func callTool(b *testing.B, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	b.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		var text string
		if len(res.Content) > 0 {
			if t, ok := res.Content[0].(*mcp.TextContent); ok {
				text = t.Text
			}
		}
		b.Fatalf("%s: tool error: %s", name, text)
	}
	return res
}

// sessionIn returns the session id a text result's headline names.
func sessionIn(b *testing.B, res *mcp.CallToolResult) string {
	b.Helper()
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if id := sessionIDPattern.FindString(t.Text); id != "" {
				return id
			}
		}
	}
	b.Fatalf("no session id in %+v", res)
	return ""
}

// sessionIDPattern matches a terminal session's id.
var sessionIDPattern = regexp.MustCompile(`\bpty_[a-z0-9]+`)

// structured returns a result's structured content as a map.
func structured(b *testing.B, res *mcp.CallToolResult) map[string]any {
	b.Helper()
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		b.Fatalf("no structured content in %+v", res)
	}
	return m
}

// timed returns how long f took.
func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

// BenchmarkMCPOverhead measures `pty_send "true"` on an interactive bash
// through `ptyseam mcp` from the Go SDK's client, against the client's
// no-op round trips on the same connection: the protocol's ping request
// (no tool runs) and pty_list (a tool call that lists one session).
// Sub-benchmarks: stdio (the server is the client's subprocess) and http
// (the streamable HTTP transport on loopback). Beside ptyseam, the same
// client drives two minimal servers of the same tools straight onto the
// ptysession facade (mcpmin_test.go), one on the official Go SDK ("sdk-"
// metrics) and one on github.com/mark3labs/mcp-go ("mcpgo-" metrics):
// ptyseam's send/list against the sdk server's is what ptyseam's tool
// layer adds, the sdk server's against the mcpgo server's what the
// library does. Samples interleave across the servers;
// PTYSEAM_BENCH_MCP_N sets the samples per side (default 500).
func BenchmarkMCPOverhead(b *testing.B) {
	for _, tr := range []string{"stdio", "http"} {
		b.Run(tr, func(b *testing.B) {
			n := envInt("PTYSEAM_BENCH_MCP_N", 500)
			servers := []*overheadServer{{}, {kind: "sdk"}, {kind: "mcpgo"}}
			for _, s := range servers {
				s.connect(b, tr)
				s.id = structured(b, callTool(b, s.cs, "pty_open", map[string]any{"command": "bash"}))["sessionId"].(string)
				defer callTool(b, s.cs, "pty_close", map[string]any{"id": s.id})
			}
			for b.Loop() {
				for range n {
					for _, s := range servers {
						s.sample(b)
					}
				}
			}
			for _, s := range servers {
				s.report(b)
			}
		})
	}
}

// overheadServer is one server of BenchmarkMCPOverhead and its samples.
type overheadServer struct {
	kind                string // "" for ptyseam, else the minimal server's library
	cs                  *mcp.ClientSession
	id                  string
	sendS, pingS, listS []time.Duration
	reasons             map[string]int
}

// name is the server's name in messages.
func (s *overheadServer) name() string {
	if s.kind == "" {
		return "ptyseam"
	}
	return s.kind
}

// connect starts the server on transport tr and connects to it.
func (s *overheadServer) connect(b *testing.B, tr string) {
	b.Helper()
	switch {
	case s.kind == "" && tr == "stdio":
		s.cs = connectStdio(b, "--structured-results")
	case s.kind == "":
		s.cs = connectHTTP(b)
	case tr == "stdio":
		cmd, err := minimalCommand(s.kind, "")
		if err != nil {
			b.Fatal(err)
		}
		s.cs = connectCommand(b, cmd)
	default:
		s.cs = connectHTTPCommand(b, func(addr, _ string) *exec.Cmd {
			cmd, err := minimalCommand(s.kind, addr)
			if err != nil {
				b.Fatal(err)
			}
			return cmd
		})
	}
}

// sample times one send, one ping (ptyseam's only) and one pty_list.
func (s *overheadServer) sample(b *testing.B) {
	b.Helper()
	if s.reasons == nil {
		s.reasons = map[string]int{}
	}
	s.sendS = append(s.sendS, timed(func() {
		m := structured(b, callTool(b, s.cs, "pty_send", map[string]any{"id": s.id, "data": "true"}))
		r, _ := m["waitReason"].(string)
		s.reasons[r]++
	}))
	// Only ptyseam's ping is timed: the protocol version mcp-go
	// negotiates over HTTP (2026-07-28) has no ping.
	if s.kind == "" {
		s.pingS = append(s.pingS, timed(func() {
			if err := s.cs.Ping(context.Background(), nil); err != nil {
				b.Fatal(err)
			}
		}))
	}
	s.listS = append(s.listS, timed(func() { callTool(b, s.cs, "pty_list", nil) }))
}

// report reports the server's metrics, ptyseam's without a prefix.
func (s *overheadServer) report(b *testing.B) {
	b.Helper()
	name, prefix := s.name(), ""
	if s.kind != "" {
		prefix = s.kind + "-"
	}
	if s.reasons["prompt"] != len(s.sendS) {
		b.Errorf("%s: not every send settled on the prompt: %v", name, s.reasons)
	}
	send, list := percentile(s.sendS, 50), percentile(s.listS, 50)
	b.ReportMetric(ms(send), prefix+"send-p50-ms")
	b.ReportMetric(ms(list), prefix+"list-p50-ms")
	b.ReportMetric(float64(send)/float64(list), prefix+"send/list-p50")
	if s.kind == "" {
		b.ReportMetric(ms(percentile(s.sendS, 99)), "send-p99-ms")
		ping := percentile(s.pingS, 50)
		b.ReportMetric(ms(ping), "ping-p50-ms")
		b.ReportMetric(float64(send)/float64(ping), "send/ping-p50")
	}
}

// BenchmarkOpenLatency measures `pty_open bash` through `ptyseam mcp`
// over stdio, which returns at the shell's first prompt, against `bash -i`
// started on a bare creack/pty PTY and read to its first prompt marker
// (the same argv and prompt marker). A third side, the facade's Open in
// this process (no transport), says which part of the difference is the
// seam's (spawn, cgroup, settle) and which the MCP call's. The session is
// closed after each sample, untimed. Samples interleave;
// PTYSEAM_BENCH_OPEN_N sets the samples per side (default 100).
func BenchmarkOpenLatency(b *testing.B) {
	n := envInt("PTYSEAM_BENCH_OPEN_N", 100)
	cs := connectStdio(b)
	sessions := ptysession.New(newService(b, core.Options{}), ptysession.Options{})
	owner := core.NewOwner("bench")
	ctx := context.Background()
	var openS, rawS, facadeS []time.Duration
	for b.Loop() {
		for range n {
			var r *rawShell
			rawS = append(rawS, timed(func() { r = startRawShell(b) }))
			r.close()
			var res *mcp.CallToolResult
			openS = append(openS, timed(func() { res = callTool(b, cs, "pty_open", map[string]any{"command": "bash"}) }))
			callTool(b, cs, "pty_close", map[string]any{"id": sessionIn(b, res)})
			var or ptysession.OpenResult
			facadeS = append(facadeS, timed(func() {
				var err error
				if or, err = sessions.Open(ctx, owner, ptysession.OpenRequest{Command: "bash"}); err != nil {
					b.Fatal(err)
				}
			}))
			if _, err := sessions.Close(ctx, owner, or.SessionID); err != nil {
				b.Fatal(err)
			}
		}
	}
	open, raw, facade := percentile(openS, 50), percentile(rawS, 50), percentile(facadeS, 50)
	b.ReportMetric(ms(open), "open-p50-ms")
	b.ReportMetric(ms(percentile(openS, 99)), "open-p99-ms")
	b.ReportMetric(ms(raw), "raw-p50-ms")
	b.ReportMetric(ms(percentile(rawS, 99)), "raw-p99-ms")
	b.ReportMetric(ms(facade), "facade-p50-ms")
	b.ReportMetric(float64(open)/float64(raw), "open/raw-p50")
	b.ReportMetric(float64(facade)/float64(raw), "facade/raw-p50")
}
