package remote

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/hashicorp/yamux"

	"github.com/ptyseam/ptyseam/core"
)

// aLongTimeAgo is a deadline in the past: it wakes a blocked stream read.
var aLongTimeAgo = time.Unix(1, 0)

// probeTimeout bounds a probe: the core's probe interfaces take no
// context, and a probe that never comes back must not hold a send forever.
const probeTimeout = 30 * time.Second

// session is a core.BackendSession on an agent. Its core.Prober asks the
// agent the settle question, the echo mode and the control characters;
// the other questions answer core.ErrUnsupported.
type session struct {
	core.UnimplementedProber

	c            *Conn
	out          *yamux.Stream // the spawn stream: the session's output
	id           uint64
	remotePID    int
	promptMarker bool

	exit   core.ExitLatch
	closer core.CloseGuard
}

func newSession(c *Conn, out *yamux.Stream, resp response) *session {
	return &session{c: c, out: out, id: resp.Session, remotePID: resp.PID, promptMarker: resp.PromptMarker}
}

// start waits for the exit status in the background.
func (s *session) start() {
	go func() {
		resp, err := s.c.call(context.Background(), request{Op: opWait, Session: s.id})
		if err != nil || resp.Status == nil {
			// The stream ended (the Conn's watch reports it), or the
			// agent forgot the session: its status is unknown.
			if s.c.mux.IsClosed() {
				s.lost()
				return
			}
			s.setExit(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "exit status unknown"})
			return
		}
		s.setExit(resp.Status.status())
	}()
}

// setExit records the exit; the first report wins (the agent's status,
// the lost stream, or the status Close brought).
func (s *session) setExit(st core.Status) { s.exit.Set(st) }

// lost ends the session because the stream ended.
func (s *session) lost() {
	s.setExit(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: reasonConnectionLost})
}

// PID returns 0: the program runs on the far side (see RemotePID).
func (s *session) PID() int { return 0 }

// RemotePID returns the top-level process id on the far side.
func (s *session) RemotePID() int { return s.remotePID }

// Read reads the session's output as the agent streams it. It returns
// io.EOF after the agent's end of output, or when the stream ended.
func (s *session) Read(p []byte) (int, error) {
	n, err := s.out.Read(p)
	if err != nil {
		if s.c.mux.IsClosed() {
			s.lost()
		}
		if n > 0 {
			return n, nil
		}
		return 0, io.EOF
	}
	return n, nil
}

// Write sends input to the terminal on the far side. ctx ending closes
// the call's stream, which cancels the write there; Write then returns
// the bytes the stream took and ctx's error. A write the agent refuses
// because the program has ended fails as Signal's does.
func (s *session) Write(ctx context.Context, p []byte) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := s.c.Err(); err != nil {
		return 0, lostError("write", err)
	}
	st, err := s.c.open(request{Op: opWrite, Session: s.id, Len: len(p)})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	stop := context.AfterFunc(ctx, func() {
		_ = st.Close()
		_ = st.SetReadDeadline(aLongTimeAgo)
	})
	defer stop()
	sent, werr := st.Write(p)
	if werr != nil {
		if ctx.Err() != nil {
			return sent, ctx.Err()
		}
		return 0, lostError("write", werr)
	}
	var resp response
	if err := readFrame(st, &resp); err != nil {
		if ctx.Err() != nil {
			return sent, ctx.Err()
		}
		return 0, lostError("write", err)
	}
	if resp.Error != nil {
		if ctx.Err() != nil {
			return resp.N, ctx.Err()
		}
		err := resp.Error.err()
		if agentSaysEnded(err) {
			return resp.N, s.endedCall(ctx, opWrite, err)
		}
		return resp.N, err
	}
	return resp.N, nil
}

// Exited is closed when the top-level process has exited, or the stream
// ended.
func (s *session) Exited() <-chan struct{} { return s.exit.Exited() }

// ExitStatus returns the exit status once Exited is closed, core.Running
// before; a lost stream gives ExitCode -1 and Reason "connection lost".
func (s *session) ExitStatus() core.Status { return s.exit.ExitStatus() }

// ExitCause returns ErrConnectionLost for a session the lost stream ended
// (core.Prober).
func (s *session) ExitCause() error {
	if s.ExitStatus().Reason == reasonConnectionLost {
		return ErrConnectionLost
	}
	return nil
}

// Signal delivers the signal on the far side, to the verified foreground
// process group as the local backend does. A signal the agent refuses
// because the program has ended waits for the session to learn the exit
// and fails with its SESSION_EXITED error (endedCall).
func (s *session) Signal(ctx context.Context, req core.SignalRequest) (core.SignalResult, error) {
	resp, err := s.c.call(ctx, request{Op: opSignal, Session: s.id, Signal: string(req.Signal), AllowLeader: req.AllowLeader})
	if agentSaysEnded(err) {
		return core.SignalResult{}, s.endedCall(ctx, opSignal, err)
	}
	var res core.SignalResult
	if resp.Signal != nil {
		res = core.SignalResult{Delivered: resp.Signal.Delivered, TargetPGID: resp.Signal.TargetPGID, Leader: resp.Signal.Leader, Method: resp.Signal.Method, Ignored: resp.Signal.Ignored}
	}
	return res, err
}

// Resize changes the far side's terminal size. A resize the agent refuses
// because the program has ended fails as Signal's does.
func (s *session) Resize(ctx context.Context, size core.Size) error {
	_, err := s.c.call(ctx, request{Op: opResize, Session: s.id, Size: toWireSize(size)})
	if agentSaysEnded(err) {
		return s.endedCall(ctx, opResize, err)
	}
	return err
}

// Close closes the session on the far side to quiescence (the agent's
// local backend kills the whole tree, setsid escapees included) and waits
// until its output has all arrived. When the stream has ended there is
// nothing left to ask: the agent closed every session when it saw the
// stream end, and Close returns nil.
//
// Calls are serialised; a failed Close may be retried, and a Close after
// a successful one returns nil.
func (s *session) Close(ctx context.Context) error {
	return s.closer.Do(func() error { return s.closeAttempt(ctx) })
}

// closeAttempt is one attempt at Close.
func (s *session) closeAttempt(ctx context.Context) error {
	if s.c.Err() == nil {
		resp, err := s.c.call(ctx, request{Op: opClose, Session: s.id})
		var e *core.Error
		if err != nil && !(errors.As(err, &e) && (e.Code == core.CodeNoSession || errors.Is(err, ErrConnectionLost))) {
			return err
		}
		if resp.Status != nil {
			s.setExit(resp.Status.status())
		}
	}
	// The program has exited (or the stream ended): Exited is closed when
	// Close returns, as for a local session.
	select {
	case <-s.exit.Exited():
	case <-s.c.done:
		s.lost()
	case <-ctx.Done():
		return &core.Error{Code: core.CodeCancelled, Op: "close", Msg: "closed on the far side, but its exit status had not arrived when the caller gave up", Err: ctx.Err()}
	}
	_ = s.out.Close()
	s.c.forget(s)
	return nil
}

// Facts reports that the session answers the settle question (through
// the agent) and whether the far side runs the local "shell" type, whose
// prompt carries the marker (core.Facts).
func (s *session) Facts() core.Facts {
	return core.Facts{PromptMarker: s.promptMarker, WatchesInput: true}
}

// probeCtx bounds a probe.
func probeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), probeTimeout)
}

// Foreground asks the agent who holds the far side's terminal
// (core.Prober).
func (s *session) Foreground() (core.InputBaseline, error) {
	ctx, cancel := probeCtx()
	defer cancel()
	resp, err := s.c.call(ctx, request{Op: opForeground, Session: s.id})
	return resp.Baseline.baseline(), err
}

// InputWait asks the agent the settle question about the far side's
// terminal (core.Prober). taken is the host's count of output bytes
// taken in, which is the agent's count too: the stream carries exactly the
// bytes the agent read.
func (s *session) InputWait(base core.InputBaseline, taken uint64) (core.InputWait, error) {
	ctx, cancel := probeCtx()
	defer cancel()
	resp, err := s.c.call(ctx, request{Op: opInputWait, Session: s.id, Base: toWireBaseline(base), Taken: taken})
	if err != nil {
		return core.InputWait{}, err
	}
	if resp.Wait == nil {
		return core.InputWait{}, core.Errorf(core.CodeInternal, "the agent answered input_wait without an answer")
	}
	return resp.Wait.inputWait(), nil
}

// ControlChar asks for the far side's terminal's key for sig and whether
// its program reads it raw (core.Prober): an error when the agent cannot
// tell.
func (s *session) ControlChar(sig core.Signal) (core.ControlKey, error) {
	ctx, cancel := probeCtx()
	defer cancel()
	resp, err := s.c.call(ctx, request{Op: opControlChar, Session: s.id, Signal: string(sig)})
	if err != nil {
		return core.ControlKey{}, err
	}
	k := core.ControlKey{Raw: resp.Raw}
	if resp.Char != nil {
		k.Char = *resp.Char
	}
	return k, nil
}

// echoTimeout bounds asking for the echo mode, which the service does
// before each write it reports to observers: past it the mode is
// unknown, and a recorder judges the input by its echo instead.
const echoTimeout = 2 * time.Second

// EchoMode asks for the far side's terminal's echo mode
// (core.Prober): core.EchoUnknown when the agent cannot tell (an older
// agent, a backend without termios) or does not answer in time, with the
// call's error when it failed.
func (s *session) EchoMode() (core.EchoMode, error) {
	ctx, cancel := context.WithTimeout(context.Background(), echoTimeout)
	defer cancel()
	resp, err := s.c.call(ctx, request{Op: opEchoMode, Session: s.id})
	if err != nil {
		return core.EchoUnknown, err
	}
	switch resp.Echo {
	case core.EchoOn.String():
		return core.EchoOn, nil
	case core.EchoHidden.String():
		return core.EchoHidden, nil
	case core.EchoByProgram.String():
		return core.EchoByProgram, nil
	}
	return core.EchoUnknown, nil
}

// DescribeReader asks the agent who reads the far side's terminal
// (core.Prober): core.ErrUnsupported when the agent's backend cannot tell
// or the agent does not know the call.
func (s *session) DescribeReader() (core.TerminalReader, error) {
	ctx, cancel := probeCtx()
	defer cancel()
	resp, err := s.c.call(ctx, request{Op: opReader, Session: s.id})
	var e *core.Error
	if errors.As(err, &e) && e.Code == core.CodeUnsupported {
		return core.TerminalReader{}, core.ErrUnsupported
	}
	if err != nil {
		return core.TerminalReader{}, err
	}
	if resp.Reader == nil {
		return core.TerminalReader{}, core.Errorf(core.CodeInternal, "the agent answered reader without a reader")
	}
	return resp.Reader.reader(), nil
}

// DescribeForeground asks the agent which program holds the far side's
// terminal (core.Prober): core.ErrUnsupported when the agent's backend
// cannot tell or the agent does not know the call.
func (s *session) DescribeForeground() (core.ForegroundProgram, bool, error) {
	ctx, cancel := probeCtx()
	defer cancel()
	resp, err := s.c.call(ctx, request{Op: opProgram, Session: s.id})
	var e *core.Error
	if errors.As(err, &e) && e.Code == core.CodeUnsupported {
		return core.ForegroundProgram{}, false, core.ErrUnsupported
	}
	if err != nil {
		return core.ForegroundProgram{}, false, err
	}
	if resp.Program == nil {
		return core.ForegroundProgram{}, false, core.ErrUnsupported // an agent that does not know the call
	}
	p, leader := resp.Program.program()
	return p, leader, nil
}

var (
	_ core.BackendSession = (*session)(nil)
	_ core.Prober         = (*session)(nil)
)
