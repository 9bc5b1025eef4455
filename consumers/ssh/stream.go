package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	gossh "golang.org/x/crypto/ssh"

	"github.com/ptyseam/ptyseam/core"
)

// maxStreamStderr bounds the standard error a Stream keeps (its tail).
const maxStreamStderr = 8 << 10

// Stream is a command's standard input and output on an exec channel of a
// shared connection, without a PTY: a raw byte stream for protocols that
// run over ssh (the remote agent of package remote speaks over one). Its
// standard error is kept apart (the last 8 KiB, see Stderr). Read, Write
// and Close may be called concurrently.
type Stream struct {
	ch      gossh.Channel
	c       *conn
	release func()
	relOnce sync.Once

	mu         sync.Mutex
	stderr     []byte
	status     core.Status
	stderrDone chan struct{}
	exited     chan struct{}
}

// Stream runs command (one command line, as the remote login shell gets
// it) on an exec channel of the connection the target's sessions share
// (a further one when the server's per-connection session limit is
// reached), and returns its standard input and output as one stream.
// Close closes the channel (the server then hangs the command up) and
// releases the connection. A lost connection ends Read with io.EOF; the
// command's exit status, once the server reported it, is ExitStatus.
func (b *Backend) Stream(ctx context.Context, t *Target, command string) (*Stream, error) {
	if err := t.validate(); err != nil {
		return nil, &core.Error{Code: core.CodeInvalidArgument, Op: "stream", Msg: err.Error()}
	}
	if strings.TrimSpace(command) == "" || strings.IndexByte(command, 0) >= 0 {
		return nil, &core.Error{Code: core.CodeInvalidArgument, Op: "stream", Msg: "the command is empty or contains a NUL byte"}
	}
	c, _, err := b.pool.acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	s, err := openStream(ctx, c, command)
	if err != nil && channelRefused(err) && b.pool.retireIfShared(c) {
		b.pool.release(c)
		if c, _, err = b.pool.acquire(ctx, t); err != nil {
			return nil, err
		}
		s, err = openStream(ctx, c, command)
	}
	if err != nil {
		b.pool.release(c)
		return nil, err
	}
	s.release = func() { b.pool.release(c) }
	return s, nil
}

// openStream opens the channel and starts the command. On error it has
// closed the channel.
func openStream(ctx context.Context, c *conn, command string) (*Stream, error) {
	o, err := c.openChannel(ctx)
	if err != nil {
		return nil, &core.Error{Code: core.CodeSpawnFailed, Op: "stream", Msg: "opening the ssh channel", Err: err}
	}
	s := &Stream{ch: o.ch, c: c, status: core.Running, stderrDone: make(chan struct{}), exited: make(chan struct{})}
	c.goTracked(func() { s.watchRequests(o.reqs) })
	c.goTracked(s.collectStderr)
	type sent struct {
		ok  bool
		err error
	}
	done := make(chan sent, 1)
	c.goTracked(func() {
		ok, err := o.ch.SendRequest("exec", true, gossh.Marshal(execMsg{Command: command}))
		done <- sent{ok, err}
	})
	var r sent
	select {
	case r = <-done:
	case <-ctx.Done():
		_ = o.ch.Close()
		return nil, &core.Error{Code: core.CodeSpawnFailed, Op: "stream", Msg: "starting the command", Err: ctx.Err()}
	}
	if r.err == nil && !r.ok {
		r.err = errors.New("the server refused the exec request")
	}
	if r.err != nil {
		_ = o.ch.Close()
		return nil, &core.Error{Code: core.CodeSpawnFailed, Op: "stream", Msg: "starting the command", Err: r.err}
	}
	return s, nil
}

// watchRequests records the exit status.
func (s *Stream) watchRequests(reqs <-chan *gossh.Request) {
	st := core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: reasonConnectionLost}
	for req := range reqs {
		switch req.Type {
		case "exit-status":
			var m exitStatusMsg
			if gossh.Unmarshal(req.Payload, &m) == nil {
				st = core.ExitedWithCode(int(m.Status))
			}
		case "exit-signal":
			var m exitSignalMsg
			if gossh.Unmarshal(req.Payload, &m) == nil {
				st = core.ExitedWithSignal("SIG" + m.Signal)
			}
		}
		if req.WantReply {
			_ = req.Reply(false, nil)
		}
	}
	s.mu.Lock()
	s.status = st
	s.mu.Unlock()
	close(s.exited)
}

// collectStderr keeps the tail of the command's standard error.
func (s *Stream) collectStderr() {
	defer close(s.stderrDone)
	buf := make([]byte, 4096)
	for {
		n, err := s.ch.Stderr().Read(buf)
		if n > 0 {
			s.mu.Lock()
			s.stderr = append(s.stderr, buf[:n]...)
			if len(s.stderr) > maxStreamStderr {
				s.stderr = append(s.stderr[:0], s.stderr[len(s.stderr)-maxStreamStderr:]...)
			}
			s.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// Read reads the command's standard output.
func (s *Stream) Read(p []byte) (int, error) { return s.ch.Read(p) }

// Write writes to the command's standard input.
func (s *Stream) Write(p []byte) (int, error) { return s.ch.Write(p) }

// CloseWrite ends the command's standard input (EOF), keeping its output.
func (s *Stream) CloseWrite() error { return s.ch.CloseWrite() }

// Close closes the channel and releases the connection. It does not wait
// for the command.
func (s *Stream) Close() error {
	err := s.ch.Close()
	if errors.Is(err, io.EOF) {
		err = nil
	}
	s.relOnce.Do(func() {
		if s.release != nil {
			s.release()
		}
	})
	return err
}

// Stderr returns the tail of what the command wrote to standard error so
// far. After StderrDone is closed it is complete.
func (s *Stream) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.stderr)
}

// StderrDone is closed when the command's standard error ended.
func (s *Stream) StderrDone() <-chan struct{} { return s.stderrDone }

// Exited is closed when the channel's requests ended: the command exited
// (ExitStatus has its status) or the channel or connection closed.
func (s *Stream) Exited() <-chan struct{} { return s.exited }

// ExitStatus returns the command's exit status once Exited is closed
// (Reason "connection lost" when the server reported none), and
// core.Running before.
func (s *Stream) ExitStatus() core.Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// ShareKey identifies the connection a target's sessions share: targets
// with the same key (host, port, user, credentials, host key policy) use
// one connection.
func (t *Target) ShareKey() string { return shareKey(t) }

var _ io.ReadWriteCloser = (*Stream)(nil)

// String describes the stream for logs.
func (s *Stream) String() string {
	return fmt.Sprintf("ssh stream to %s@%s", s.c.target.User, s.c.target.Addr())
}

// Hold keeps the connection the target's sessions share open (dialing it
// if needed) until release is called, so that a sequence of Run and
// Stream calls uses one connection instead of one each. release is safe
// to call more than once.
func (b *Backend) Hold(ctx context.Context, t *Target) (release func(), err error) {
	if err := t.validate(); err != nil {
		return nil, &core.Error{Code: core.CodeInvalidArgument, Op: "hold", Msg: err.Error()}
	}
	c, _, err := b.pool.acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { b.pool.release(c) }) }, nil
}
