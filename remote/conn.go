package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/hashicorp/yamux"

	"github.com/ptyseam/ptyseam/core"
)

// AgentInfo describes the agent at the far end of a [Conn].
type AgentInfo struct {
	// Protocol is the version both ends speak.
	Protocol int
	// OS and Arch are the agent's runtime.GOOS and runtime.GOARCH.
	OS, Arch string
	// PID is the agent's process id on the far side.
	PID int
	// Build is the agent's module path and version, for diagnostics.
	Build string
}

// Conn is a connection to one agent over one stream. Its methods may be
// called concurrently. Sessions spawned on it end with ErrConnectionLost
// when the stream ends.
type Conn struct {
	mux  *yamux.Session
	info AgentInfo

	mu       sync.Mutex
	sessions map[*session]struct{}
	closed   bool
	cause    error // why the stream ended, once it did
	done     chan struct{}
	onIdle   func() // called (once per transition) when the last session is closed
}

// Connect performs the hello on rw (the agent's first line, then the
// host's answer choosing the newest protocol version both speak) and
// starts the multiplexer. rw is closed when the Conn is closed or the
// handshake fails. ctx bounds the handshake only: when it ends first,
// Connect returns at once, and its read of rw ends when rw's Read does.
//
// It fails with an *AgentError matching ErrAgentMissing when the far side
// ends the stream or prints something else than an agent's hello (what it
// printed is in the error), ErrAgentArch when that says the binary is of
// another architecture, and ErrAgentVersion when no protocol version fits.
func Connect(ctx context.Context, rw io.ReadWriteCloser) (*Conn, error) {
	type result struct {
		hello agentHello
		err   error
	}
	res := make(chan result, 1)
	go func() {
		h, err := hostHandshake(rw)
		res <- result{h, err}
	}()
	var r result
	select {
	case r = <-res:
	case <-ctx.Done():
		// Closing rw does not wake a Read on every stream: an ssh channel
		// waits for the far side to confirm the close, which a silent far
		// side never does while its command lives. The handshake's read
		// then ends when the stream is torn down under it (the ssh
		// connection closed), not here.
		_ = rw.Close()
		return nil, &AgentError{Kind: ErrAgentMissing, Msg: "no hello from the agent before the context ended: " + ctx.Err().Error()}
	}
	if r.err != nil {
		_ = rw.Close()
		return nil, r.err
	}
	mux, err := yamux.Client(newFrameConn(rw), muxConfig())
	if err != nil {
		_ = rw.Close()
		return nil, err
	}
	c := &Conn{mux: mux, sessions: map[*session]struct{}{}, done: make(chan struct{}),
		info: AgentInfo{Protocol: minInt(r.hello.Max, ProtocolVersion), OS: r.hello.OS, Arch: r.hello.Arch, PID: r.hello.PID, Build: r.hello.Build}}
	go c.watch()
	return c, nil
}

// hostHandshake reads the agent's hello (skipping up to maxPreamble bytes
// of other lines) and answers it.
func hostHandshake(rw io.ReadWriter) (agentHello, error) {
	var seen []byte
	for {
		line, err := readLine(rw, maxHelloLine)
		if err == nil || errors.Is(err, io.ErrUnexpectedEOF) {
			var h agentHello
			ok, perr := parseHello(line, agentMagic, &h)
			if perr != nil {
				return h, &AgentError{Kind: ErrAgentMissing, Msg: perr.Error()}
			}
			if ok && err == nil {
				v, verr := negotiate(MinProtocolVersion, ProtocolVersion, h)
				answer := hostHello{Version: v}
				if verr != nil {
					answer.Error = verr.Error()
				}
				if _, werr := rw.Write(encodeHello(hostMagic, answer)); werr != nil && verr == nil {
					verr = fmt.Errorf("remote: answering the agent's hello: %w", werr)
				}
				return h, verr
			}
		}
		seen = append(seen, line...)
		seen = append(seen, '\n')
		if err != nil || len(seen) > maxPreamble {
			return agentHello{}, missingAgent(seen, err)
		}
	}
}

// Info describes the agent.
func (c *Conn) Info() AgentInfo { return c.info }

// Done is closed when the stream has ended (Close, or lost).
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns nil while the stream lives, and then an error matching
// ErrConnectionLost (also after Close).
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cause
}

// Sessions counts the sessions spawned on c and not closed yet.
func (c *Conn) Sessions() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sessions)
}

// Close ends the stream. The agent then closes every session it started;
// the sessions here end with ErrConnectionLost.
func (c *Conn) Close() error {
	err := c.mux.Close()
	<-c.done
	return err
}

// watch ends every session when the stream ends.
func (c *Conn) watch() {
	<-c.mux.CloseChan()
	c.mu.Lock()
	c.closed = true
	c.cause = ErrConnectionLost
	all := make([]*session, 0, len(c.sessions))
	for s := range c.sessions {
		all = append(all, s)
	}
	c.mu.Unlock()
	for _, s := range all {
		s.lost()
	}
	close(c.done)
}

// open opens a call's stream and sends its request.
func (c *Conn) open(req request) (*yamux.Stream, error) {
	st, err := c.mux.OpenStream()
	if err != nil {
		return nil, lostError(req.Op, err)
	}
	if err := writeFrame(st, req); err != nil {
		_ = st.Close()
		return nil, lostError(req.Op, err)
	}
	return st, nil
}

// call sends req and waits for the response; ctx ending closes the
// stream, which cancels the call on the agent.
func (c *Conn) call(ctx context.Context, req request) (response, error) {
	st, err := c.open(req)
	if err != nil {
		return response{}, err
	}
	defer st.Close()
	return c.await(ctx, st, req.Op)
}

// await reads a call's response.
func (c *Conn) await(ctx context.Context, st *yamux.Stream, op string) (response, error) {
	stop := context.AfterFunc(ctx, func() { _ = st.Close(); _ = st.SetReadDeadline(aLongTimeAgo) })
	defer stop()
	var resp response
	if err := readFrame(st, &resp); err != nil {
		if ctx.Err() != nil {
			return response{}, &core.Error{Code: core.CodeCancelled, Op: op, Msg: "the caller's context ended", Err: ctx.Err()}
		}
		return response{}, lostError(op, err)
	}
	if resp.Error != nil {
		return resp, resp.Error.err()
	}
	return resp, nil
}

// Spawn starts a session on the agent with the agent's backend of type
// typ ("shell" or "exec" for the local PTY backend).
func (c *Conn) Spawn(ctx context.Context, typ string, req core.BackendRequest) (core.BackendSession, error) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: "the connection to the agent has ended (closed, or lost); " +
			"spawn the session on a new connection to the agent (remote.Connect), once the host is reachable if it was lost", Err: ErrConnectionLost}
	}
	st, err := c.open(request{Op: opSpawn, Type: typ, Command: req.Command, Dir: req.Dir, Env: req.Env,
		Size: toWireSize(req.Size), Marker: req.Marker})
	if err != nil {
		return nil, spawnFailed(err)
	}
	resp, err := c.await(ctx, st, opSpawn)
	if err != nil {
		_ = st.Close() // a session the agent started anyway is closed there
		return nil, spawnFailed(err)
	}
	s := newSession(c, st, resp)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		s.lost()
		return nil, spawnFailed(lostError(opSpawn, nil))
	}
	c.sessions[s] = struct{}{}
	c.mu.Unlock()
	s.start()
	return s, nil
}

// spawnFailed keeps a spawn's error a SPAWN_FAILED (or the agent's own
// code, such as TOO_MANY_SESSIONS) with the cause matchable.
func spawnFailed(err error) error {
	var e *core.Error
	if errors.As(err, &e) && e.Code != core.CodeInternal && e.Code != core.CodeSessionExited && e.Code != core.CodeCancelled {
		return err
	}
	return &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: "starting the session on the agent", Err: err}
}

// forget drops a closed session; the last one calls onIdle.
func (c *Conn) forget(s *session) {
	c.mu.Lock()
	_, had := c.sessions[s]
	delete(c.sessions, s)
	idle := had && len(c.sessions) == 0 && !c.closed
	f := c.onIdle
	c.mu.Unlock()
	if idle && f != nil {
		f()
	}
}

// OnIdle sets f to be called each time the last open session on c is
// closed (a pool closes an idle connection so that the agent exits).
func (c *Conn) OnIdle(f func()) {
	c.mu.Lock()
	c.onIdle = f
	c.mu.Unlock()
}
