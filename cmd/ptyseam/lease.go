package main

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// Leases (--lease): a client's owner, with its terminals and jobs,
// outlives its MCP session for the lease, so that a client whose
// connection dropped resumes them on a new one with pty_open's resume
// argument and the token its pty_open results gave it. The token is the
// only key: a session's id alone still answers only its owner. When the
// lease ends unclaimed the owner is disposed as a disconnected client's
// always was: every terminal closed, every process gone. See docs/mcp.md
// "Leases".

// lease binds an owner to the connection that holds it, or to the timer
// that disposes it while it waits for its client.
type lease struct {
	token string
	owner *core.Owner
	ss    *mcp.ServerSession // the connection that holds it; nil while it waits
	timer *time.Timer        // ends it while it waits
}

// newResumeToken returns 128 random bits, in lower-case base32.
func newResumeToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "rsm_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// resumeArg is pty_open's resume argument, added to its schema under a
// lease.
const resumeArg = "resume"

// withResumeArg adds the resume argument to pty_open's input schema.
func withResumeArg(t tools.Tool) (tools.Tool, error) {
	var schema map[string]any
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
		return t, err
	}
	props, _ := schema["properties"].(map[string]any)
	if props == nil {
		return t, fmt.Errorf("pty_open's input schema has no properties")
	}
	props[resumeArg] = map[string]any{"type": "string",
		"description": "After a dropped connection: the resume token a pty_open gave; takes those sessions back."}
	b, err := json.Marshal(schema)
	if err != nil {
		return t, err
	}
	t.InputSchema = b
	return t, nil
}

// resumeToken returns the resume argument of pty_open's args, if given.
func resumeToken(args json.RawMessage) (string, bool) {
	var a map[string]json.RawMessage
	if json.Unmarshal(args, &a) != nil {
		return "", false
	}
	raw, ok := a[resumeArg]
	if !ok {
		return "", false
	}
	var tok string
	_ = json.Unmarshal(raw, &tok)
	return tok, true
}

// withToken adds owner's resume token to the headline of a pty_open
// result's text.
func (ts *toolServer) withToken(owner *core.Owner, res tools.Result) tools.Result {
	ts.mu.Lock()
	l := ts.leaseOf[owner]
	ts.mu.Unlock()
	if l == nil {
		return res
	}
	head, rest, nl := strings.Cut(res.Text, "\n")
	if !strings.HasSuffix(head, "]") {
		return res
	}
	res.Text = strings.TrimSuffix(head, "]") + "; resume token " + l.token + " if your connection drops]"
	if nl {
		res.Text += "\n" + rest
	}
	return res
}

// park lets ss's owner wait for its client for the lease, or reports
// false when it has no lease or the server stops. Called when ss ended;
// an owner another connection took over is left to it.
func (ts *toolServer) park(ss *mcp.ServerSession, o *core.Owner) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	l := ts.leaseOf[o]
	switch {
	case l == nil:
		return false
	case l.ss != ss:
		return true // resumed on another connection
	case ts.leasesStopped:
		delete(ts.leases, l.token)
		delete(ts.leaseOf, o)
		return false
	}
	l.ss = nil
	ts.wg.Add(1)
	l.timer = time.AfterFunc(ts.leaseFor, func() { ts.expire(l) })
	ts.log.Info("ptyseam: client disconnected; its sessions wait for it to resume them", "owner", o.Name(), "lease", ts.leaseFor)
	return true
}

// expire disposes a lease's owner unless its client came back.
func (ts *toolServer) expire(l *lease) {
	defer ts.wg.Done()
	ts.mu.Lock()
	if l.ss != nil || ts.leases[l.token] != l {
		ts.mu.Unlock()
		return
	}
	delete(ts.leases, l.token)
	delete(ts.leaseOf, l.owner)
	l.timer = nil
	ts.mu.Unlock()
	ts.dispose(l.owner)
	ts.log.Info("ptyseam: a disconnected client's lease ended; its sessions are closed", "owner", l.owner.Name())
}

// stopLeases ends every waiting lease at shutdown: the owners are
// disposed with every other (the service's shutdown), and a connection
// that ends from now on disposes its owner at once.
func (ts *toolServer) stopLeases() {
	ts.mu.Lock()
	ts.leasesStopped = true
	var waiting []*core.Owner
	for _, l := range ts.leases {
		if l.timer != nil && l.timer.Stop() {
			ts.wg.Done()
			l.timer = nil
			waiting = append(waiting, l.owner)
		}
	}
	ts.mu.Unlock()
	for _, o := range waiting {
		ts.dispose(o)
	}
}

// resume gives ss the owner whose lease token is, with its sessions and
// jobs, and lists them. ss's own owner must hold nothing yet.
func (ts *toolServer) resume(ctx context.Context, ss *mcp.ServerSession, token string) (tools.Result, error) {
	ts.mu.Lock()
	l := ts.leases[token]
	cur := ts.owners[ss]
	ts.mu.Unlock()
	if l == nil || token == "" {
		return tools.Result{}, &tools.ToolError{Code: string(core.CodeNoSession),
			Message: fmt.Sprintf("no sessions wait for this resume token: it is not one this server gave, or its lease (%s after the connection ended) is over", ts.leaseFor),
			Hint:    "Call pty_open without resume to start a new session."}
	}
	if l.owner != cur {
		if held, err := ts.sessions.List(ctx, cur); err == nil && len(held.Sessions) > 0 {
			return tools.Result{}, tools.InvalidArgument(resumeArg, "this connection has sessions of its own: resume on a new connection, before opening any")
		}
		ts.mu.Lock()
		if ts.leases[token] != l || ts.owners[ss] != cur {
			ts.mu.Unlock()
			return tools.Result{}, &tools.ToolError{Code: string(core.CodeNoSession), Message: "the lease ended while resuming"}
		}
		if l.timer != nil {
			if l.timer.Stop() {
				ts.wg.Done()
			}
			l.timer = nil
		}
		old := l.ss
		l.ss = ss
		ts.owners[ss] = l.owner
		if own := ts.leaseOf[cur]; own != nil {
			delete(ts.leases, own.token)
			delete(ts.leaseOf, cur)
		}
		ts.mu.Unlock()
		ts.dispose(cur) // it holds nothing
		if old != nil {
			// The connection that held it is still open on this side (its
			// client vanished without ending it): end it.
			go func() { _ = old.Close() }()
		}
		ts.log.Info("ptyseam: a client resumed its sessions", "owner", l.owner.Name())
	}
	list, err := ts.sessions.List(ctx, l.owner)
	if err != nil {
		return tools.Result{}, tools.AsToolError(err, "")
	}
	head := "no sessions"
	if len(list.Sessions) > 0 {
		head = strings.TrimSuffix(strings.TrimPrefix(tools.Headline(ptysession.RenderList(list)), "["), "]")
	}
	text := fmt.Sprintf("[resumed %s; pty_tail returns what they printed since your last call; resume token %s]", head, token)
	var out ptysession.OpenResult
	if len(list.Sessions) > 0 {
		s := list.Sessions[0]
		out = ptysession.OpenResult{SessionID: s.ID, PID: s.PID, Status: s.Status}
		text += "\n" + strings.SplitN(ptysession.RenderList(list), "\n", 2)[1]
	}
	return tools.Result{Structured: out, Text: text}, nil
}
