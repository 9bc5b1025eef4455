package pipebackend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// session is one program on pipes.
type session struct {
	// It answers no question about a terminal (there is none) but Facts.
	core.UnimplementedProber

	opts   Options
	cmd    *exec.Cmd
	pid    int
	grp    procGroup      // the program's process group: what signals and teardown address
	leaf   *localpty.Leaf // the session's cgroup v2 leaf, or nil (see Options.DisableCgroup)
	marker string
	in     *os.File // write end of the program's stdin
	out    *os.File // read end of the program's merged stdout and stderr

	exit core.ExitLatch // set once the program has been reaped

	waitDone chan struct{} // closed when wait (and its hang-up) returned

	draining bool // Read only: the drain window is armed

	wmu    sync.Mutex // serialises writes
	dlMu   sync.Mutex // guards dlGen and write-deadline changes
	dlGen  uint64
	inDone bool // stdin was closed

	closer core.CloseGuard // its Closing stops the hang-up: Close ends the whole session itself
}

func newSession(o Options, cmd *exec.Cmd, grp procGroup, leaf *localpty.Leaf, in, out *os.File, marker string) *session {
	s := &session{
		opts:     o,
		cmd:      cmd,
		pid:      cmd.Process.Pid,
		grp:      grp,
		leaf:     leaf,
		marker:   marker,
		in:       in,
		out:      out,
		waitDone: make(chan struct{}),
	}
	go s.wait()
	return s
}

// wait reaps the program, records its status and wakes a blocked Read so
// that it can drain what is left and report io.EOF; then it hangs up what
// the program left in its process group (see hangup).
func (s *session) wait() {
	defer close(s.waitDone)
	err := localpty.WaitChild(s.cmd)
	st := statusOf(s.cmd.ProcessState, err)
	// The deadline goes first: a Read that sees the exit then arms its
	// own drain window after it, never before.
	_ = s.out.SetReadDeadline(time.Now())
	s.exit.Set(st)
	s.opts.Logger.Debug("pipebackend: program exited", "pid", s.pid, "status", st.String())
	s.hangup(s.closer.Closing())
}

func statusOf(ps *os.ProcessState, err error) core.Status {
	if ps == nil {
		return core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: errString(err)}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return core.ExitedWithSignal(signalName(ws.Signal()))
	}
	return core.ExitedWithCode(ps.ExitCode())
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// PID returns the program's process id.
func (s *session) PID() int { return s.pid }

// Facts says that the Enter key is "\n": programs on pipes read lines.
func (s *session) Facts() core.Facts { return core.Facts{Enter: []byte{'\n'}} }

var (
	_ core.BackendSession = (*session)(nil)
	_ core.Prober         = (*session)(nil)
)

// Exited is closed when the program has exited.
func (s *session) Exited() <-chan struct{} { return s.exit.Exited() }

// ExitStatus returns the program's status, core.Running before it exited.
func (s *session) ExitStatus() core.Status { return s.exit.ExitStatus() }

// Read reads the merged output. Once the program has exited it keeps
// returning what is buffered in the pipe, and reports io.EOF when the pipe
// is closed by every writer or has been silent for the drain window.
func (s *session) Read(p []byte) (int, error) {
	for {
		if !s.draining && s.isExited() {
			s.draining = true
		}
		if s.draining {
			_ = s.out.SetReadDeadline(time.Now().Add(s.opts.DrainWindow))
		}
		n, err := s.out.Read(p)
		if n > 0 {
			return n, nil
		}
		switch {
		case err == nil:
			continue
		case errors.Is(err, os.ErrDeadlineExceeded):
			if s.draining {
				return 0, io.EOF
			}
			// Only the waiter sets a deadline before draining starts: the
			// program exited during the read. Drain from now on.
			<-s.exit.Exited()
			continue
		case errors.Is(err, io.EOF), errors.Is(err, os.ErrClosed):
			return 0, io.EOF
		default:
			return 0, err
		}
	}
}

func (s *session) isExited() bool { return s.exit.Done() }

// Write writes p to the program's stdin. It returns when ctx ends even if
// the program does not read. Writing after the program and every other
// reader of its stdin are gone is a CodeSessionExited error.
func (s *session) Write(ctx context.Context, p []byte) (int, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.dlMu.Lock()
	if s.inDone {
		s.dlMu.Unlock()
		return 0, &core.Error{Code: core.CodeSessionClosing, Op: "write", Msg: "the session is closed", Err: os.ErrClosed}
	}
	s.dlGen++
	gen := s.dlGen
	_ = s.in.SetWriteDeadline(time.Time{})
	s.dlMu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		s.dlMu.Lock()
		defer s.dlMu.Unlock()
		if s.dlGen == gen && !s.inDone {
			_ = s.in.SetWriteDeadline(time.Now())
		}
	})
	n, err := s.in.Write(p)
	stop()
	s.dlMu.Lock()
	s.dlGen++ // a late AfterFunc of this write does nothing now
	s.dlMu.Unlock()
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil:
		return n, ctx.Err()
	case errors.Is(err, syscall.EPIPE):
		return n, &core.Error{Code: core.CodeSessionExited, Op: "write", Msg: "the program no longer reads its input", Err: err}
	case errors.Is(err, os.ErrClosed):
		return n, &core.Error{Code: core.CodeSessionClosing, Op: "write", Msg: "the session is closed", Err: err}
	}
	return n, err
}

// Signal delivers req.Signal to the program's process group (a pipe has no
// terminal, so the group is the program's own). SIGKILL is refused with
// SIGNAL_REFUSED unless req.AllowLeader is set.
func (s *session) Signal(ctx context.Context, req core.SignalRequest) (core.SignalResult, error) {
	res := core.SignalResult{TargetPGID: s.pid, Leader: true, Method: "pgid"}
	sig, ok := sysSignal(req.Signal)
	if !ok && missingSignals[req.Signal] {
		return res, core.Errorf(core.CodeUnsupported, "%s does not exist on this platform; SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGKILL do", string(req.Signal))
	}
	if !ok {
		return res, core.Errorf(core.CodeInvalidArgument, "unknown signal %q", string(req.Signal))
	}
	if sig == syscall.SIGKILL && !req.AllowLeader {
		return res, core.Errorf(core.CodeSignalRefused, "SIGKILL would hit the program's own process group; set AllowLeader or close the session")
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if err := s.grp.signal(sig); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return res, &core.Error{Code: core.CodeSessionExited, Op: "signal", Msg: "the program's process group is gone", Err: err}
		}
		return res, &core.Error{Code: core.CodeInternal, Op: "signal", Msg: "kill failed", Err: err}
	}
	res.Delivered = true
	return res, nil
}

// Resize fails with UNSUPPORTED: a pipe has no terminal size.
func (s *session) Resize(ctx context.Context, size core.Size) error {
	return core.Errorf(core.CodeUnsupported, "a pipe session has no terminal to resize")
}

// Close terminates every process of the session (see the package
// documentation), then closes the pipes. A failed Close may be retried;
// Close after a successful Close returns nil.
func (s *session) Close(ctx context.Context) error {
	return s.closer.Do(func() error { return s.closeAttempt(ctx) })
}

// closeAttempt is one attempt at Close. The hang-up has stopped waiting
// (the closer's Closing): terminate ends the whole session itself.
func (s *session) closeAttempt(ctx context.Context) error {
	if err := s.terminate(ctx); err != nil {
		return err
	}
	<-s.waitDone // the program is reaped: wait returns once Closing is seen
	// What left the session unseen (an env-cleared setsid daemon whose
	// parent is gone) is still in the leaf: kill it, then remove the leaf.
	if err := s.leaf.Kill(); err != nil {
		return &core.CleanupError{Err: fmt.Errorf("pipebackend: killing the session's cgroup leaf: %w", err)}
	}
	if err := s.leaf.Remove(ctx); err != nil {
		return &core.CleanupError{Err: fmt.Errorf("pipebackend: removing the session's cgroup leaf: %w", err)}
	}
	s.dlMu.Lock()
	s.inDone = true
	_ = s.in.SetWriteDeadline(time.Now()) // unblock a writer stuck on a full pipe
	s.dlMu.Unlock()
	s.wmu.Lock()
	_ = s.in.Close()
	s.wmu.Unlock()
	_ = s.out.Close()
	s.grp.release()
	return nil
}
