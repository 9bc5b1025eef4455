package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// stdioServer runs `ptyseam mcp` on pipes in this process and returns its
// input, a reader of its answers and its exit code (after the input ends).
func stdioServer(t *testing.T, args ...string) (io.WriteCloser, *bufio.Reader, <-chan int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(context.Background(), append([]string{"mcp", "--structured-results"}, args...), inR, outW, io.Discard)
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		go func() { _, _ = io.Copy(io.Discard, outR) }()
		select {
		case <-code:
		case <-time.After(testenv.HangBound):
			t.Error("the server did not exit after its input ended")
		}
	})
	return inW, bufio.NewReaderSize(outR, 1<<20), code
}

// rpcAnswer is one JSON-RPC response as the server sent it.
type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func sendLine(t *testing.T, in io.Writer, line string) {
	t.Helper()
	if _, err := io.WriteString(in, line+"\n"); err != nil {
		t.Fatalf("writing %.40q: %v", line, err)
	}
}

func readAnswer(t *testing.T, out *bufio.Reader) rpcAnswer {
	t.Helper()
	type res struct {
		line string
		err  error
	}
	c := make(chan res, 1)
	go func() { l, err := out.ReadString('\n'); c <- res{l, err} }()
	select {
	case r := <-c:
		if r.err != nil {
			t.Fatalf("the server ended the connection: %v", r.err)
		}
		var a rpcAnswer
		if err := json.Unmarshal([]byte(r.line), &a); err != nil {
			t.Fatalf("answer %q: %v", r.line, err)
		}
		return a
	case <-time.After(testenv.HangBound):
		t.Fatalf("no answer within %v", testenv.HangBound)
	}
	return rpcAnswer{}
}

func initialize(t *testing.T, in io.Writer, out *bufio.Reader) {
	t.Helper()
	sendLine(t, in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if a := readAnswer(t, out); a.Error != nil {
		t.Fatalf("initialize: %+v", a.Error)
	}
	sendLine(t, in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func TestStdioMalformedLinesAreAnsweredAndServingGoesOn(t *testing.T) {
	in, out, _ := stdioServer(t)
	initialize(t, in, out)
	huge := `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 17<<20) + `"}}`
	for _, c := range []struct {
		name, line string
		code       int
		id         string
	}{
		{"garbage", "garbage", -32700, "null"},
		{"empty batch", "[]", -32600, "null"},
		{"null", "null", -32600, "null"},
		{"number", "42", -32600, "null"},
		{"leading 0xFF", "\xff" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, -32700, "null"},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}`, -32600, "null"},
		{"deep nesting", strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), -32700, "null"},
		{"truncated object", `{"jsonrpc":"2.0","id":3,"method":`, -32700, "null"},
		{"batch of one", `[{"jsonrpc":"2.0","id":4,"method":"tools/list"}]`, -32600, "null"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600, "null"},
		{"line over 16 MiB", huge, -32700, "null"},
		{"unknown method", `{"jsonrpc":"2.0","id":"u1","method":"no/such"}`, -32601, `"u1"`},
	} {
		sendLine(t, in, c.line)
		a := readAnswer(t, out)
		if a.Error == nil || a.Error.Code != c.code || string(a.ID) != c.id {
			t.Errorf("%s: answer id %s error %+v, want code %d id %s", c.name, a.ID, a.Error, c.code, c.id)
		}
	}
	// Still serving: a tool call works after all of that.
	sendLine(t, in, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"pty_list","arguments":{}}}`)
	a := readAnswer(t, out)
	if a.Error != nil || string(a.ID) != "7" || !strings.Contains(string(a.Result), "sessions") {
		t.Fatalf("a valid call after the bad lines: id %s result %s error %+v", a.ID, a.Result, a.Error)
	}
}
