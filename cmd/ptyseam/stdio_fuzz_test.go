package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzStdioLine: any input line decodes to a message or to a -32700 or
// -32600 answer, and the line reader splits any stream without losing a
// short line or buffering a long one whole.
func FuzzStdioLine(f *testing.F) {
	for _, s := range []string{"garbage", "[]", "null", "\xff{}", `{"jsonrpc":"2.0","id":1e400,"method":"x"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list"}`, "[[[[", "{\"id\":1}\r\n{}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, _, code, why := decodeLine(data)
		if msg == nil && (code != jsonrpc.CodeParseError && code != jsonrpc.CodeInvalidRequest || why == "") {
			t.Fatalf("line %q: no message and answer %d %q", data, code, why)
		}
		r := bufio.NewReaderSize(bytes.NewReader(data), 16)
		const limit = 32
		for {
			line, err := readLine(r, limit)
			if len(line) > limit+1 {
				t.Fatalf("a %d-byte line came through a %d-byte limit", len(line), limit)
			}
			if err != nil && !errors.Is(err, errLineTooLong) {
				if !errors.Is(err, io.EOF) {
					t.Fatal(err)
				}
				return
			}
		}
	})
}
