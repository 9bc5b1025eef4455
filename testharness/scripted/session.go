package scripted

import (
	"context"
	"io"
	"strings"
	"sync"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/promptmark"
)

// session is one scripted terminal. Its output is a byte queue that Read
// drains; its "program" answers each completed input line at once, inside
// Write, so that a send's output is in the queue before the service
// probes the terminal.
type session struct {
	// The questions of core.Prober it does not answer.
	core.UnimplementedProber

	b *Backend

	mu         sync.Mutex
	ready      *sync.Cond // signalled when out grows or the session ends
	out        []byte     // printed, not yet read
	read       uint64     // bytes Read returned so far
	line       []byte     // the input line being typed
	afterCR    bool       // the previous input byte was "\r" (a following "\n" is the same Enter)
	afterCtrlV bool       // the previous input byte was Ctrl-V (quoted-insert): this one stands for itself
	reading    bool       // the program waits for input after a stdin_read reply
	secret     bool       // the next line is not echoed
	switches   uint64     // counts the waits for input, as a probe does
	status     core.Status
	exited     chan struct{}
	closed     bool
}

func newSession(b *Backend) *session {
	s := &session{b: b, status: core.Running, exited: make(chan struct{})}
	s.ready = sync.NewCond(&s.mu)
	return s
}

// printLocked queues text, with "\n" as "\r\n".
func (s *session) printLocked(text string) {
	if text == "" {
		return
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")
	s.out = append(s.out, text...)
	s.ready.Broadcast()
}

// promptLocked prints the prompt; code is the exit code of the command
// that ended (-1: none, at start).
func (s *session) promptLocked(code int) {
	s.reading = false
	p := s.b.prompt(code)
	if code < 0 {
		p = p[strings.Index(p, promptmark.PromptStart):]
	}
	s.out = append(s.out, p...)
	s.ready.Broadcast()
}

// answerLocked runs the script for one input line.
func (s *session) answerLocked(line string) {
	r := s.b.script.reply(line)
	s.secret = r.Secret
	s.printLocked(r.Output)
	switch r.Settle {
	case core.WaitStdinRead:
		s.reading = true
		s.switches++
	case core.WaitInferredIdle:
		s.reading = false
	case core.WaitSessionExit:
		s.exitLocked(core.ExitedWithCode(r.ExitCode))
	default:
		s.promptLocked(r.ExitCode)
	}
}

func (s *session) exitLocked(st core.Status) {
	if s.status.Exited() {
		return
	}
	s.status, s.reading = st, false
	close(s.exited)
	s.ready.Broadcast()
}

func (s *session) echoes() bool { return !s.b.script.NoEcho && !s.secret }

// PID returns 0: there is no process.
func (s *session) PID() int { return 0 }

// Read returns queued output, blocking until there is some; io.EOF once
// the program exited (or the session closed) and everything was read.
func (s *session) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.out) == 0 && !s.status.Exited() && !s.closed {
		s.ready.Wait()
	}
	if len(s.out) == 0 || s.closed {
		return 0, io.EOF
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	s.read += uint64(n)
	return n, nil
}

// Write types p: printable bytes are echoed and collected into a line,
// Enter ("\r" or "\n") answers the line, "\x03" interrupts, DEL erases.
func (s *session) Write(ctx context.Context, p []byte) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range p {
		if s.status.Exited() || s.closed {
			return i, io.ErrClosedPipe
		}
		cr, quoted := s.afterCR, s.afterCtrlV
		s.afterCR, s.afterCtrlV = c == '\r', c == 0x16 && !quoted
		switch {
		case s.afterCtrlV: // a line editor's quoted-insert: the next byte stands for itself
		case quoted:
			s.line = append(s.line, c)
			if s.echoes() {
				s.out = append(s.out, c)
				s.ready.Broadcast()
			}
		case c == '\n' && cr:
		case c == '\r' || c == '\n':
			line := string(s.line)
			s.line = s.line[:0]
			if s.echoes() {
				s.printLocked("\n")
			}
			s.b.record(line)
			s.answerLocked(line)
		case c == 0x03:
			s.line = s.line[:0]
			s.printLocked("^C\n")
			s.promptLocked(130)
		case c == 0x7f:
			if len(s.line) > 0 {
				s.line = s.line[:len(s.line)-1]
			}
		default:
			s.line = append(s.line, c)
			if s.echoes() {
				s.out = append(s.out, c)
				s.ready.Broadcast()
			}
		}
	}
	return len(p), nil
}

// Exited is closed when the program exited.
func (s *session) Exited() <-chan struct{} { return s.exited }

// ExitStatus returns the exit status, or core.Running.
func (s *session) ExitStatus() core.Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// Signal: SIGINT interrupts like "\x03"; SIGTERM, SIGHUP and SIGQUIT end
// the program; SIGKILL ends it with AllowLeader and is refused without
// (the program is the session's top-level process); SIGTSTP and SIGCONT
// are delivered and change nothing.
func (s *session) Signal(ctx context.Context, req core.SignalRequest) (core.SignalResult, error) {
	if err := ctx.Err(); err != nil {
		return core.SignalResult{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status.Exited() {
		return core.SignalResult{}, core.ErrSessionExited
	}
	switch req.Signal {
	case core.SIGINT:
		s.line = s.line[:0]
		s.printLocked("^C\n")
		s.promptLocked(130)
	case core.SIGKILL:
		if !req.AllowLeader {
			return core.SignalResult{}, &core.Error{Code: core.CodeSignalRefused, Op: "signal", Msg: "SIGKILL would kill the session's top-level program"}
		}
		s.exitLocked(core.ExitedWithSignal(string(req.Signal)))
	case core.SIGTERM, core.SIGHUP, core.SIGQUIT:
		s.exitLocked(core.ExitedWithSignal(string(req.Signal)))
	}
	return core.SignalResult{Delivered: true, Leader: true, Method: "scripted"}, nil
}

// Resize does nothing: a script prints the same at any size.
func (s *session) Resize(ctx context.Context, size core.Size) error { return ctx.Err() }

// Close ends the program (SIGHUP, as a closing terminal does) and the
// output.
func (s *session) Close(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exitLocked(core.ExitedWithSignal(string(core.SIGHUP)))
	s.closed = true
	s.ready.Broadcast()
	return nil
}

// Foreground reports the program as the terminal's holder (it is the
// top-level process), with its count of waits for input.
func (s *session) Foreground() (core.InputBaseline, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return core.InputBaseline{Group: 1, Leader: true, Wakes: s.switches}, nil
}

// InputWait reports the program waiting for input after a stdin_read
// reply, once the service has read and taken in all of its output.
func (s *session) InputWait(base core.InputBaseline, taken uint64) (core.InputWait, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := core.InputBaseline{Group: 1, Leader: true, Wakes: s.switches}
	return core.InputWait{
		Now:     now,
		Reading: s.reading,
		Waiting: s.reading && len(s.out) == 0 && s.read <= taken,
		New:     now.Differs(base),
	}, nil
}

// Facts reports that the session marks its prompts and answers the
// settle question.
func (s *session) Facts() core.Facts { return core.Facts{PromptMarker: true, WatchesInput: true} }

var (
	_ core.BackendSession = (*session)(nil)
	_ core.Prober         = (*session)(nil)
)
