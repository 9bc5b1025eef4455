package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLineBytes bounds one inbound stdio line (one JSON-RPC message).
const maxLineBytes = 16 << 20

// lineTransport is the stdio transport: newline-delimited JSON-RPC, where a
// line that is not a valid message is answered with a JSON-RPC error and
// skipped. Only the end of the input stream (or a failed write) ends the
// connection. The SDK's IOTransport ends the connection, and with it every
// session of the client, on the first bad line.
type lineTransport struct {
	in      io.Reader
	out     io.Writer
	maxLine int // 0 means maxLineBytes
}

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.maxLine
	if limit <= 0 {
		limit = maxLineBytes
	}
	c := &lineConn{out: t.out, limit: limit, lines: make(chan lineOrErr), closed: make(chan struct{})}
	go c.readLines(bufio.NewReaderSize(t.in, 64<<10), limit)
	return c, nil
}

type lineOrErr struct {
	line []byte
	err  error // a read error, or errLineTooLong for a skipped line
}

var errLineTooLong = errors.New("line too long")

// lineConn is one stdio connection.
type lineConn struct {
	out     io.Writer
	limit   int
	writeMu sync.Mutex
	lines   chan lineOrErr
	closed  chan struct{}
	once    sync.Once
}

// readLines feeds lines to Read until the input ends or the connection is
// closed. A line longer than limit is consumed up to its newline and
// reported as errLineTooLong, never buffered whole.
func (c *lineConn) readLines(r *bufio.Reader, limit int) {
	for {
		line, err := readLine(r, limit)
		if err == nil || errors.Is(err, errLineTooLong) {
			if !c.deliver(lineOrErr{line: line, err: err}) {
				return
			}
			continue
		}
		// The stream ended; its last line may lack the newline.
		if len(line) > 0 && !c.deliver(lineOrErr{line: line}) {
			return
		}
		c.deliver(lineOrErr{err: err})
		return
	}
}

func (c *lineConn) deliver(v lineOrErr) bool {
	select {
	case c.lines <- v:
		return true
	case <-c.closed:
		return false
	}
}

// readLine returns the next line without its newline. Past limit bytes it
// discards the rest of the line and returns errLineTooLong.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > limit+1 { // +1: the newline
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil {
				return nil, err
			}
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return line, err
		}
	}
}

// Read returns the next valid message. Invalid lines are answered here and
// skipped; blank lines are ignored.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var v lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case v = <-c.lines:
		}
		if errors.Is(v.err, errLineTooLong) {
			if err := c.writeError(ctx, nil, jsonrpc.CodeParseError, fmt.Sprintf("message longer than %d bytes; it was skipped", c.limit)); err != nil {
				return nil, err
			}
			continue
		}
		if v.err != nil {
			return nil, v.err
		}
		if len(bytes.TrimSpace(v.line)) == 0 {
			continue
		}
		msg, id, code, why := decodeLine(v.line)
		if msg != nil {
			return msg, nil
		}
		if err := c.writeError(ctx, id, code, why); err != nil {
			return nil, err
		}
	}
}

// decodeLine decodes one line into a message, or returns the JSON-RPC
// error to answer it with: -32700 for a line that is not JSON, -32600 for
// JSON that is not one valid message (a batch, null, a bad id, ...). The
// request's id is echoed when it can be read.
func decodeLine(line []byte) (jsonrpc.Message, json.RawMessage, int64, string) {
	if !json.Valid(line) {
		var syn *json.SyntaxError
		err := json.Unmarshal(line, new(json.RawMessage))
		if errors.As(err, &syn) {
			return nil, nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error at byte %d: %v", syn.Offset, syn)
		}
		return nil, nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: %v", err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be one JSON object (batches are not supported)"
	}
	id := readID(obj["id"])
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: %v", err)
	}
	return msg, id, 0, ""
}

// readID returns a request id that can be echoed (a string, or an integer
// a JSON number can hold exactly); otherwise nil, sent as the null id.
func readID(raw json.RawMessage) json.RawMessage {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return raw
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil && n > -(1<<53) && n < 1<<53 {
		return raw
	}
	return nil
}

// writeError answers a line that is not a valid message.
func (c *lineConn) writeError(ctx context.Context, id json.RawMessage, code int64, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		return err
	}
	return c.writeLine(ctx, data)
}

// Write implements mcp.Connection: one message per line.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeLine(ctx, data)
}

func (c *lineConn) writeLine(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Close implements mcp.Connection; it unblocks Read.
func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *lineConn) SessionID() string { return "" }
