package ssh

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/relay"
	"github.com/ptyseam/ptyseam/internal/shellquote"
	gossh "golang.org/x/crypto/ssh"
)

// session is one SSH session channel: a core.BackendSession.
type session struct {
	// Its core.Prober answers the exit cause alone: the far end's
	// terminal is out of reach.
	core.UnimplementedProber

	c       *conn
	ch      gossh.Channel
	reqs    <-chan *gossh.Request
	shell   bool // the login shell, not a command
	pty     bool
	modes   map[uint8]uint32
	grace   time.Duration
	release func()

	relay *relay.Stream // the channel's output and input

	exit core.ExitLatch

	reqsDone chan struct{}      // the channel is closed on both sides
	syncReqs chan chan struct{} // takeQueued's asks to the request loop
	closer   core.CloseGuard
	closed   chan struct{} // Close has closed the channel
	relOnce  sync.Once
	wg       sync.WaitGroup
}

// openSession opens and starts the channel. On error it has closed it.
// A non-empty line is the command line as the remote login shell gets it
// (Run), in place of req's argv, Env and Dir.
func openSession(ctx context.Context, c *conn, t *Target, req core.BackendRequest, line string) (*session, error) {
	o, err := c.openChannel(ctx)
	if err != nil {
		return nil, &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: "opening the ssh session channel", Err: err}
	}
	s := &session{
		c: c, ch: o.ch, reqs: o.reqs,
		shell:    len(req.Command) == 0 && line == "",
		pty:      !t.NoPTY,
		modes:    mergedModes(t.Modes),
		grace:    t.closeGrace(),
		reqsDone: make(chan struct{}),
		syncReqs: make(chan chan struct{}),
		closed:   make(chan struct{}),
	}
	// Input ends when the channel is closed on both sides, not with the
	// output: the server's EOF is a half-close, after which a program
	// without a PTY may still read.
	s.relay = relay.New(relay.Config{Name: "ssh", Exited: s.exit.Exited(), Closed: s.closed, WriteEnd: s.reqsDone,
		Gone: s.errChannelGone, Cause: s.ExitCause})
	if err := s.setup(ctx, t, req, line); err != nil {
		_ = s.ch.Close()
		c.goTracked(func() { gossh.DiscardRequests(s.reqs) })
		if ctx.Err() != nil {
			err = &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: "setting up the ssh session", Err: ctx.Err()}
		}
		return nil, err
	}
	return s, nil
}

func (s *session) setup(ctx context.Context, t *Target, req core.BackendRequest, raw string) error {
	if s.pty {
		size := req.Size
		if size.Rows == 0 || size.Cols == 0 {
			size = core.DefaultSize
		}
		ok, err := s.request(ctx, "pty-req", true, gossh.Marshal(ptyRequestMsg{
			Term: t.term(), Columns: uint32(size.Cols), Rows: uint32(size.Rows), Modelist: encodeModes(s.modes),
		}))
		if err != nil {
			return errSpawn("ssh pty request: %v", err)
		}
		if !ok {
			return errSpawn("the server refused the PTY request")
		}
	}
	var exports []string
	for _, kv := range req.Env {
		name, value, _ := strings.Cut(kv, "=")
		ok, err := s.request(ctx, "env", true, gossh.Marshal(envRequestMsg{Name: name, Value: value}))
		if err != nil {
			return errSpawn("ssh env request: %v", err)
		}
		if !ok {
			exports = append(exports, "export "+name+"="+shellquote.Quote(value)+"; ")
		}
	}
	line := remoteCommand(exports, req.Dir, req.Command)
	if raw != "" {
		line = raw
	}
	var ok bool
	var err error
	if line == "" {
		ok, err = s.request(ctx, "shell", true, nil)
	} else {
		ok, err = s.request(ctx, "exec", true, gossh.Marshal(execMsg{Command: line}))
	}
	if err != nil {
		return errSpawn("ssh shell/exec request: %v", err)
	}
	if !ok {
		return errSpawn("the server refused to start the program")
	}
	return nil
}

// remoteCommand builds the exec line, or "" for a plain shell request.
func remoteCommand(exports []string, dir string, argv []string) string {
	if len(exports) == 0 && dir == "" && len(argv) == 0 {
		return ""
	}
	var b strings.Builder
	for _, e := range exports {
		b.WriteString(e)
	}
	if dir != "" {
		b.WriteString("cd " + shellquote.Quote(dir) + " && ")
	}
	if len(argv) == 0 {
		b.WriteString(`exec "${SHELL:-/bin/sh}" -l`)
	} else {
		b.WriteString(ShellJoin(argv))
	}
	return b.String()
}

// request sends a channel request, bounded by ctx.
func (s *session) request(ctx context.Context, name string, wantReply bool, payload []byte) (bool, error) {
	type result struct {
		ok  bool
		err error
	}
	res := make(chan result, 1)
	s.c.goTracked(func() {
		ok, err := s.ch.SendRequest(name, wantReply, payload)
		res <- result{ok, err}
	})
	select {
	case r := <-res:
		return r.ok, r.err
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// start launches the goroutines that serve the channel: its requests,
// and the relay of its output (standard output and standard error, merged)
// and input.
func (s *session) start() {
	s.wg.Add(1)
	go s.serveRequests()
	s.relay.Start(s.ch, s.ch, s.ch.Stderr())
}

func (s *session) serveRequests() {
	defer s.wg.Done()
	for open := true; open; {
		select {
		case r, ok := <-s.reqs:
			if ok {
				s.handleRequest(r)
			}
			open = ok
		case done := <-s.syncReqs:
			open = s.handleQueued()
			close(done)
		}
	}
	// The channel is closed. With the exit reported, that is all: the
	// input side ends now (a write the channel refused is waiting for
	// it). Without an exit report, say why: Close, or a lost connection
	// (x/crypto closes every channel before the connection reports its
	// end), or the server's doing, which an answer to a request sent now
	// proves (it travels behind the server's close).
	if s.exit.Done() {
		close(s.reqsDone)
		return
	}
	st := core.Status{Kind: core.StatusExited, ExitCode: -1}
	closedByServer := "the server closed the channel without an exit status"
	var answered <-chan error
	if !s.closer.IsClosing() {
		answered = s.c.roundTrip()
	}
	t := time.NewTimer(answerLimit)
	select {
	case <-s.closer.Closing():
		st.Reason = "closed"
	case <-s.c.dead:
		st.Reason = reasonConnectionLost
	case err := <-answered:
		st.Reason = closedByServer
		if err != nil {
			st.Reason = reasonConnectionLost
		}
	case <-t.C: // a server that answers no request; its keepalive ends it
		st.Reason = closedByServer
	}
	t.Stop()
	if s.c.isDead() && st.Reason != "closed" {
		st.Reason = reasonConnectionLost
	}
	if s.exit.Set(st) && st.Reason == reasonConnectionLost {
		s.c.log.Info("ssh session ended: connection lost", "host", s.c.target.Host, "port", s.c.target.port(), "user", s.c.target.User, "cause", s.c.cause())
	}
	close(s.reqsDone)
}

// answerLimit bounds the wait for the server's answer that tells a
// channel it closed from a lost connection (see serveRequests).
const answerLimit = 30 * time.Second

// handleRequest takes one request the server sent on the channel.
func (s *session) handleRequest(r *gossh.Request) {
	switch r.Type {
	case "exit-status":
		var m exitStatusMsg
		if gossh.Unmarshal(r.Payload, &m) == nil {
			s.exit.Set(core.ExitedWithCode(int(m.Status)))
		}
	case "exit-signal":
		var m exitSignalMsg
		if gossh.Unmarshal(r.Payload, &m) == nil {
			s.exit.Set(core.ExitedWithSignal("SIG" + m.Signal))
		}
	}
	if r.WantReply {
		_ = r.Reply(false, nil)
	}
}

// PID returns 0: a remote process has no local pid.
func (s *session) PID() int { return 0 }

// Read returns the merged output. The first session of a new connection
// starts with the server's banner. io.EOF comes once the output ended and
// the exit is known.
func (s *session) Read(p []byte) (int, error) { return s.relay.Read(p) }

// errChannelGone is the error of a call on an ended session: it matches
// core.ErrSessionExited and, when the connection was lost,
// ErrConnectionLost.
func (s *session) errChannelGone() error {
	if cause := s.ExitCause(); cause != nil {
		return &core.Error{Code: core.CodeSessionExited, Msg: "the ssh session ended" + goneNext, Err: cause}
	}
	return core.Errorf(core.CodeSessionExited, "the ssh channel is closed: the program has ended"+goneNext)
}

// goneNext says what to do with an ended session.
const goneNext = "; read its last output and exit status, then close the session"

// ExitCause returns an error matching ErrConnectionLost, with the cause
// seen ("keepalive timed out", the network error), when the session ended
// because its connection was lost; nil otherwise (see core.Prober).
func (s *session) ExitCause() error {
	if s.ExitStatus().Reason != reasonConnectionLost {
		return nil
	}
	if cause := s.c.cause(); cause != "" && cause != reasonConnectionLost {
		return fmt.Errorf("%w (%s)", ErrConnectionLost, strings.TrimPrefix(cause, reasonConnectionLost+": "))
	}
	return ErrConnectionLost
}

// reasonConnectionLost is the Status.Reason of a session whose connection
// ended under it.
const reasonConnectionLost = "connection lost"

// Write sends input. It returns when ctx is done even if the remote side
// does not read; the bytes already handed to the channel are still sent.
func (s *session) Write(ctx context.Context, p []byte) (int, error) { return s.relay.Write(ctx, p) }

// Exited is closed when the remote program reported its exit, or the
// channel or connection ended.
func (s *session) Exited() <-chan struct{} { return s.exit.Exited() }

// ExitStatus returns the remote exit status, core.Running before.
func (s *session) ExitStatus() core.Status { return s.exit.ExitStatus() }

// Resize sends a window change. Without a PTY it does nothing.
func (s *session) Resize(ctx context.Context, size core.Size) error {
	if !s.pty {
		return nil
	}
	if s.exit.Done() {
		return s.errChannelGone()
	}
	_, err := s.request(ctx, "window-change", false, gossh.Marshal(windowChangeMsg{Columns: uint32(size.Cols), Rows: uint32(size.Rows)}))
	if err != nil {
		return s.requestFailed(ctx, "ssh window change", err)
	}
	return nil
}

// Close ends the remote program and the channel. It hangs the program up
// (SIGHUP to the session's process group), then sends SIGTERM and finally
// SIGKILL, giving each up to a share of Target.CloseGrace to bring an exit
// report; then it closes the channel and waits, bounded by ctx, for the
// server to confirm. A signal the server refuses (OpenSSH refuses them on
// a root login) ends the ladder at once: closing the channel still hangs
// up the PTY's foreground group. What Close cannot reach is described in
// the package documentation.
func (s *session) Close(ctx context.Context) error {
	return s.closer.Do(func() error { return s.closeAttempt(ctx) })
}

// closeAttempt is one attempt at Close; a failed one may be retried.
func (s *session) closeAttempt(ctx context.Context) error {
	steps := []struct {
		sig  string
		wait time.Duration
	}{{"HUP", s.grace / 2}, {"TERM", s.grace / 2}, {"KILL", s.grace}}
	for _, st := range steps {
		if s.exit.Done() || ctx.Err() != nil {
			break
		}
		if ok, err := s.request(ctx, "signal", true, gossh.Marshal(signalMsg{Signal: st.sig})); err != nil || !ok {
			break // refused, or the channel is going: closing it is what is left
		}
		t := time.NewTimer(st.wait)
		select {
		case <-s.exit.Exited():
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	_ = s.ch.Close()
	var err error
	select {
	case <-s.reqsDone:
	case <-ctx.Done():
		err = &core.CleanupError{Err: fmt.Errorf("ssh: the server did not confirm closing the channel: %w", ctx.Err())}
	}
	// Stop reading either way, so that Read returns; a retry waits for
	// the confirmation again.
	s.relOnce.Do(func() { close(s.closed) })
	if err != nil {
		return err
	}
	s.wg.Wait()
	s.relay.Wait()
	if s.release != nil {
		s.release()
	}
	return nil
}

var (
	_ core.BackendSession = (*session)(nil)
	_ core.Prober         = (*session)(nil)
)
