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
// TestMain).
var ptyseamBinary = sync.OnceValues(func() (string, error) {
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

// connectStdio starts `ptyseam mcp` as the client's subprocess (the
// transport an agent host uses) and returns the client session.
func connectStdio(b *testing.B) *mcp.ClientSession {
	b.Helper()
	cmd := exec.Command(serverBinary(b), "mcp", "--log-level", "error")
	cmd.Env = os.Environ()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
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
	// A reserved port: one picked free and released could be taken by
	// another process before the server binds it.
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.ReservePort(b))
	var raw [24]byte
	_, _ = rand.Read(raw[:])
	token := hex.EncodeToString(raw[:])
	cmd := exec.Command(serverBinary(b), "mcp", "--http", addr, "--token", token, "--log-level", "info")
	cmd.Env = os.Environ()
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
			if strings.Contains(sc.Text(), "serving MCP over HTTP") {
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
		b.Fatal("ptyseam mcp --http exited before serving")
	case <-time.After(time.Minute):
		b.Fatal("ptyseam mcp --http did not start within a minute")
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
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
// (the streamable HTTP transport on loopback). Samples interleave;
// PTYSEAM_BENCH_MCP_N sets the samples per side (default 500).
func BenchmarkMCPOverhead(b *testing.B) {
	for _, tr := range []string{"stdio", "http"} {
		b.Run(tr, func(b *testing.B) {
			n := envInt("PTYSEAM_BENCH_MCP_N", 500)
			var cs *mcp.ClientSession
			if tr == "stdio" {
				cs = connectStdio(b)
			} else {
				cs = connectHTTP(b)
			}
			ctx := context.Background()
			id := structured(b, callTool(b, cs, "pty_open", map[string]any{"command": "bash"}))["sessionId"].(string)
			defer callTool(b, cs, "pty_close", map[string]any{"id": id})
			var sendS, pingS, listS []time.Duration
			reasons := map[string]int{}
			for b.Loop() {
				for range n {
					sendS = append(sendS, timed(func() {
						m := structured(b, callTool(b, cs, "pty_send", map[string]any{"id": id, "data": "true"}))
						r, _ := m["waitReason"].(string)
						reasons[r]++
					}))
					pingS = append(pingS, timed(func() {
						if err := cs.Ping(ctx, nil); err != nil {
							b.Fatal(err)
						}
					}))
					listS = append(listS, timed(func() { callTool(b, cs, "pty_list", nil) }))
				}
			}
			if reasons["prompt"] != len(sendS) {
				b.Errorf("not every send settled on the prompt: %v", reasons)
			}
			send, ping, list := percentile(sendS, 50), percentile(pingS, 50), percentile(listS, 50)
			b.ReportMetric(ms(send), "send-p50-ms")
			b.ReportMetric(ms(percentile(sendS, 99)), "send-p99-ms")
			b.ReportMetric(ms(ping), "ping-p50-ms")
			b.ReportMetric(ms(list), "list-p50-ms")
			b.ReportMetric(float64(send)/float64(ping), "send/ping-p50")
			b.ReportMetric(float64(send)/float64(list), "send/list-p50")
		})
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
			callTool(b, cs, "pty_close", map[string]any{"id": structured(b, res)["sessionId"].(string)})
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
