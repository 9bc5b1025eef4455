package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/hashicorp/yamux"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// Agent defaults.
const (
	// DefaultAgentMaxSessions bounds the live sessions of one stream.
	DefaultAgentMaxSessions = 256
	// DefaultAgentMaxCalls bounds the calls one stream has in flight.
	DefaultAgentMaxCalls = 1024
	// DefaultAgentCloseTimeout bounds closing everything when the stream
	// ends.
	DefaultAgentCloseTimeout = 30 * time.Second
)

// AgentOptions configure [Serve]. The zero value serves the local PTY
// backend's "shell" and "exec" types with their defaults.
type AgentOptions struct {
	// Backends serve the spawn requests, by type. Default: localpty's
	// NewShell and NewExec with default options.
	Backends []core.Backend
	// MaxSessions bounds the live sessions (default
	// DefaultAgentMaxSessions); a spawn past it is refused with
	// TOO_MANY_SESSIONS.
	MaxSessions int
	// MaxCalls bounds the calls in flight (default DefaultAgentMaxCalls);
	// a call past it is refused with RESOURCE_LIMIT.
	MaxCalls int
	// CloseTimeout bounds closing every session when the stream ends
	// (default DefaultAgentCloseTimeout).
	CloseTimeout time.Duration
	// Logger receives the agent's logs (never terminal bytes). Default:
	// slog.Default().
	Logger *slog.Logger
}

func (o AgentOptions) withDefaults() AgentOptions {
	if len(o.Backends) == 0 {
		o.Backends = []core.Backend{localpty.NewShell(localpty.ShellOptions{}), localpty.NewExec(localpty.ExecOptions{})}
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultAgentMaxSessions
	}
	if o.MaxCalls <= 0 {
		o.MaxCalls = DefaultAgentMaxCalls
	}
	if o.CloseTimeout <= 0 {
		o.CloseTimeout = DefaultAgentCloseTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// agent is one served stream.
type agent struct {
	opts     AgentOptions
	backends map[string]core.Backend
	log      *slog.Logger
	life     context.Context // ends when the stream ends
	calls    chan struct{}   // semaphore of calls in flight

	mu       sync.Mutex
	sessions map[uint64]*agentSession
	nextID   uint64
	ended    bool // the stream ended: no more spawns
	wg       sync.WaitGroup
}

// agentSession is a session the agent started.
type agentSession struct {
	id    uint64
	be    core.BackendSession
	probe core.Prober // core.ProberOf(be)
	facts core.Facts  // probe's, asked once
	// pumped is closed when the session's output has all been read.
	pumped chan struct{}
}

// Serve is the agent: it answers the host's hello on rw, then serves calls
// until the stream ends or ctx ends; then it closes every session it
// started (to quiescence, within CloseTimeout) and returns. It returns nil
// when the stream ended after a successful hello, the hello's error when
// there was none, and a *core.CleanupError when some session could not be
// closed.
//
// A program's main runs it on its standard input and output (`ptyseam
// agent`); it should be a child subreaper (localpty.BecomeSubreaper) so
// that escapees are found where cgroup v2 is not available.
func Serve(ctx context.Context, rw io.ReadWriteCloser, opts AgentOptions) error {
	opts = opts.withDefaults()
	a := &agent{opts: opts, log: opts.Logger, backends: map[string]core.Backend{},
		sessions: map[uint64]*agentSession{}, calls: make(chan struct{}, opts.MaxCalls)}
	for _, b := range opts.Backends {
		a.backends[b.Type()] = b
	}
	stop := context.AfterFunc(ctx, func() { _ = rw.Close() })
	defer stop()
	if err := agentHandshake(rw); err != nil {
		_ = rw.Close()
		return err
	}
	cfg := muxConfig()
	mux, err := yamux.Server(newFrameConn(rw), cfg)
	if err != nil {
		_ = rw.Close()
		return err
	}
	life, endLife := context.WithCancel(context.Background())
	a.life = life
	stopMux := context.AfterFunc(ctx, func() { _ = mux.Close() })
	defer stopMux()
	for {
		st, err := mux.AcceptStream()
		if err != nil {
			break
		}
		select {
		case a.calls <- struct{}{}:
		default:
			a.wg.Add(1)
			go func() {
				defer a.wg.Done()
				refuse(st, core.CodeResourceLimit, fmt.Sprintf("the agent has %d calls in flight on this stream, its bound", opts.MaxCalls))
			}()
			continue
		}
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			defer func() { <-a.calls }()
			a.handle(st)
		}()
	}
	_ = mux.Close()
	endLife()
	err = a.closeAll()
	a.wg.Wait()
	return err
}

// agentHandshake says hello and reads the host's answer.
func agentHandshake(rw io.ReadWriter) error {
	build := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		build = bi.Main.Path + "@" + bi.Main.Version
	}
	hello := agentHello{Min: MinProtocolVersion, Max: ProtocolVersion, OS: runtime.GOOS, Arch: runtime.GOARCH, PID: getpid(), Build: build}
	if _, err := rw.Write(encodeHello(agentMagic, hello)); err != nil {
		return fmt.Errorf("remote: writing the agent's hello: %w", err)
	}
	line, err := readLine(rw, maxHelloLine)
	if err != nil {
		return fmt.Errorf("remote: reading the host's hello: %w", err)
	}
	var h hostHello
	ok, err := parseHello(line, hostMagic, &h)
	switch {
	case err != nil:
		return err
	case !ok:
		return fmt.Errorf("%w: the host's first line is not a hello", errFrame)
	case h.Version == 0:
		return fmt.Errorf("%w: the host refused: %s", ErrAgentVersion, h.Error)
	case h.Version < MinProtocolVersion || h.Version > ProtocolVersion:
		return fmt.Errorf("%w: the host chose version %d, outside [%d, %d]", ErrAgentVersion, h.Version, MinProtocolVersion, ProtocolVersion)
	}
	return nil
}

// muxConfig is the yamux configuration of both ends.
func muxConfig() *yamux.Config {
	cfg := yamux.DefaultConfig()
	cfg.LogOutput = io.Discard
	// A host that stops answering is gone: the agent then closes
	// everything (keepalive pings every 15 s, writes time out after 15 s).
	cfg.KeepAliveInterval = 15 * time.Second
	cfg.ConnectionWriteTimeout = 15 * time.Second
	cfg.StreamCloseTimeout = time.Minute
	return cfg
}

// refuse answers a stream's call with an error.
func refuse(st *yamux.Stream, code core.Code, msg string) {
	defer st.Close()
	var req request
	if err := readFrame(st, &req); err != nil {
		return
	}
	_ = writeFrame(st, response{Error: &wireError{Code: string(code), Op: req.Op, Msg: msg}})
}

// handle serves one call.
func (a *agent) handle(st *yamux.Stream) {
	defer st.Close()
	var req request
	if err := readFrame(st, &req); err != nil {
		a.log.Debug("remote agent: bad call", "err", err)
		return
	}
	switch req.Op {
	case opSpawn:
		a.spawn(st, req)
		return
	case opWrite:
		a.write(st, req)
		return
	}
	// Every other call: the host closing its side cancels it.
	ctx, cancel := context.WithCancel(a.life)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, st)
		cancel()
	}()
	resp := a.call(ctx, req)
	_ = writeFrame(st, resp)
}

// session finds a live session.
func (a *agent) session(op string, id uint64) (*agentSession, *wireError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[id]
	if s == nil {
		return nil, &wireError{Code: string(core.CodeNoSession), Op: op, Msg: fmt.Sprintf("the agent has no session %d (closed, or never started)", id)}
	}
	return s, nil
}

// call serves the calls that are one request and one response.
func (a *agent) call(ctx context.Context, req request) response {
	s, werr := a.session(req.Op, req.Session)
	if werr != nil {
		return response{Error: werr}
	}
	switch req.Op {
	case opWait:
		select {
		case <-s.be.Exited():
			return response{Status: toWireStatus(s.be.ExitStatus())}
		case <-ctx.Done():
			return response{Error: toWireError(req.Op, core.Errorf(core.CodeCancelled, "the host stopped waiting"))}
		}
	case opForeground:
		if !s.facts.WatchesInput {
			return response{Error: unsupported(req.Op)}
		}
		b, err := s.probe.Foreground()
		if unsupportedAnswer(err) {
			return response{Error: unsupported(req.Op)}
		}
		return response{Baseline: toWireBaseline(b), Error: toWireError(req.Op, err)}
	case opInputWait:
		if !s.facts.WatchesInput {
			return response{Error: unsupported(req.Op)}
		}
		// The host's taken count is the agent's too: the host's Read
		// returns exactly the bytes the agent's Read returned.
		iw, err := s.probe.InputWait(req.Base.baseline(), req.Taken)
		if unsupportedAnswer(err) {
			return response{Error: unsupported(req.Op)}
		}
		if err != nil {
			return response{Error: toWireError(req.Op, err)}
		}
		return response{Wait: toWireInputWait(iw)}
	case opControlChar:
		k, err := s.probe.ControlChar(core.Signal(req.Signal))
		if unsupportedAnswer(err) {
			return response{Error: unsupported(req.Op)}
		}
		if err != nil {
			return response{Error: toWireError(req.Op, err)}
		}
		resp := response{Raw: k.Raw}
		if k.Char != 0 {
			resp.Char = &k.Char
		}
		return resp
	case opEchoMode:
		m, err := s.probe.EchoMode()
		if unsupportedAnswer(err) {
			return response{Error: unsupported(req.Op)}
		}
		if err == nil && m != core.EchoUnknown {
			return response{Echo: m.String()}
		}
		return response{}
	case opReader:
		r, err := s.probe.DescribeReader()
		if unsupportedAnswer(err) {
			return response{Error: unsupported(req.Op)}
		}
		if err != nil {
			return response{Error: toWireError(req.Op, err)}
		}
		return response{Reader: toWireReader(r)}
	case opProgram:
		p, leader, err := s.probe.DescribeForeground()
		if unsupportedAnswer(err) {
			return response{Error: unsupported(req.Op)}
		}
		if err != nil {
			return response{Error: toWireError(req.Op, err)}
		}
		return response{Program: toWireProgram(p, leader)}
	case opSignal:
		res, err := s.be.Signal(ctx, core.SignalRequest{Signal: core.Signal(req.Signal), AllowLeader: req.AllowLeader})
		return response{Signal: &wireSignalResult{Delivered: res.Delivered, TargetPGID: res.TargetPGID, Leader: res.Leader, Method: res.Method, Ignored: res.Ignored},
			Error: toWireError(req.Op, err)}
	case opResize:
		return response{Error: toWireError(req.Op, s.be.Resize(ctx, req.Size.size()))}
	case opClose:
		if err := a.closeSession(ctx, s); err != nil {
			return response{Error: toWireError(req.Op, err)}
		}
		// A closed session has exited: its status travels with the answer,
		// so that the host's Exited is closed when its Close returns.
		select {
		case <-s.be.Exited():
			return response{Status: toWireStatus(s.be.ExitStatus())}
		default:
			return response{}
		}
	}
	return response{Error: &wireError{Code: string(core.CodeUnsupported), Op: req.Op,
		Msg: fmt.Sprintf("the agent does not know the call %q (protocol version %d)", req.Op, ProtocolVersion)}}
}

// unsupportedAnswer reports whether err is the bare core.ErrUnsupported a
// backend's core.Prober gives for a question it cannot answer at all (an
// UnimplementedProber's): the host is told so in the agent's words.
func unsupportedAnswer(err error) bool {
	var e *core.Error
	return errors.As(err, &e) && e.Code == core.CodeUnsupported && e.Msg == "" && e.Err == nil
}

func unsupported(op string) *wireError {
	return &wireError{Code: string(core.CodeUnsupported), Op: op, Msg: "the agent's backend cannot answer " + op}
}

// closeSession closes s to quiescence, waits for its output pump, and
// forgets it.
func (a *agent) closeSession(ctx context.Context, s *agentSession) error {
	if err := s.be.Close(ctx); err != nil {
		return err
	}
	select {
	case <-s.pumped:
	case <-ctx.Done():
		return core.Errorf(core.CodeCancelled, "closed, but the output was still being read when the caller gave up")
	}
	a.mu.Lock()
	delete(a.sessions, s.id)
	a.mu.Unlock()
	return nil
}

// closeAll closes every session, all at once, within CloseTimeout.
func (a *agent) closeAll() error {
	a.mu.Lock()
	a.ended = true
	all := make([]*agentSession, 0, len(a.sessions))
	for _, s := range a.sessions {
		all = append(all, s)
	}
	a.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), a.opts.CloseTimeout)
	defer cancel()
	errs := make([]error, len(all))
	var wg sync.WaitGroup
	for i, s := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = a.closeSession(ctx, s)
		}()
	}
	wg.Wait()
	var survivors []int
	var failed []error
	for _, err := range errs {
		if err == nil {
			continue
		}
		failed = append(failed, err)
		var ce *core.CleanupError
		if errors.As(err, &ce) {
			survivors = append(survivors, ce.Survivors...)
		}
	}
	if len(failed) > 0 {
		a.log.Error("remote agent: closing the sessions at the stream's end failed", "err", errors.Join(failed...))
		return &core.CleanupError{Err: errors.Join(failed...), Survivors: survivors}
	}
	if len(all) > 0 {
		a.log.Debug("remote agent: the stream ended; closed its sessions", "count", len(all))
	}
	return nil
}
