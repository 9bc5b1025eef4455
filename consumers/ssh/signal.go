package ssh

import (
	"context"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
	gossh "golang.org/x/crypto/ssh"
)

// ttyChar returns the control character that makes the remote terminal's
// line discipline send sig to its foreground process group, if any.
func (s *session) ttyChar(sig core.Signal) (byte, bool) {
	if !s.pty {
		return 0, false
	}
	var op uint8
	switch sig {
	case core.SIGINT:
		op = gossh.VINTR
	case core.SIGQUIT:
		op = gossh.VQUIT
	case core.SIGTSTP:
		op = gossh.VSUSP
	default:
		return 0, false
	}
	if s.modes[gossh.ISIG] == 0 {
		return 0, false
	}
	c, ok := s.modes[op]
	if !ok || c == 0 || c > 255 {
		return 0, false
	}
	return byte(c), true
}

// Signal delivers sig as well as SSH allows. The protocol names no process
// group: OpenSSH signals the session's own process group, which for a login
// shell is the shell and not the command running in the foreground. So:
//
//   - SIGINT, SIGQUIT and SIGTSTP to a shell session are typed as their
//     control characters (^C, ^\, ^Z) through the PTY, which the remote
//     line discipline delivers to the foreground process group (Method
//     "tty-char").
//   - Other signals, and all signals to command sessions, go as an SSH
//     "signal" request (Method "ssh-signal"). If the server refuses it
//     (older OpenSSH, or a signal outside RFC 4254 such as SIGTSTP or
//     SIGCONT), SIGINT, SIGQUIT and SIGTSTP fall back to the control
//     character; others fail with core.ErrUnsupported.
//   - SIGKILL can only hit the session's top-level process group (the
//     shell, or the command itself), so it is refused with
//     core.ErrSignalRefused unless req.AllowLeader is set. An ssh-signal
//     result always reports Leader, for the same reason.
//
// TargetPGID is always 0: the remote group cannot be named.
func (s *session) Signal(ctx context.Context, req core.SignalRequest) (core.SignalResult, error) {
	if s.exit.Done() {
		return core.SignalResult{}, s.errChannelGone()
	}
	if req.Signal == core.SIGKILL && !req.AllowLeader {
		return core.SignalResult{}, core.Errorf(core.CodeSignalRefused, "SIGKILL would hit the session's top-level process group")
	}
	char, hasChar := s.ttyChar(req.Signal)
	if s.shell && hasChar {
		return s.typeChar(ctx, char)
	}
	ok, err := s.request(ctx, "signal", true, gossh.Marshal(signalMsg{Signal: sigName(string(req.Signal))}))
	if err != nil {
		err = s.requestFailed(ctx, "ssh signal", err)
		if core.CodeOf(err) == core.CodeSessionExited && s.ExitStatus().Signal == string(req.Signal) {
			// The channel closed before the answer and the program died
			// of this signal: it was delivered.
			return core.SignalResult{Delivered: true, Leader: true, Method: "ssh-signal"}, nil
		}
		return core.SignalResult{}, err
	}
	if ok {
		return core.SignalResult{Delivered: true, Leader: true, Method: "ssh-signal"}, nil
	}
	// A refusal may be the server's answer for a program that has just
	// exited, whose exit report came first: take it before deciding.
	// takeQueued fails only with ctx's error: requestFailed makes it
	// CANCELLED naming the ssh signal.
	if err := s.takeQueued(ctx); err != nil {
		return core.SignalResult{}, s.requestFailed(ctx, "ssh signal",
			fmt.Errorf("the server refused %s, and the caller gave up before the reports sent ahead of the refusal were taken: %w", req.Signal, err))
	}
	if s.exit.Done() {
		return core.SignalResult{}, s.errChannelGone()
	}
	if hasChar {
		return s.typeChar(ctx, char)
	}
	return core.SignalResult{}, core.Errorf(core.CodeUnsupported, "the ssh server refused to deliver %s (OpenSSH refuses signals on a root login); "+
		"SIGINT, SIGQUIT and SIGTSTP travel as the terminal's control characters: SIGTSTP (Ctrl-Z), then \"kill -TERM %%1\" sent to the shell, ends a job that ignores Ctrl-C", req.Signal)
}

func (s *session) typeChar(ctx context.Context, c byte) (core.SignalResult, error) {
	if _, err := s.Write(ctx, []byte{c}); err != nil {
		return core.SignalResult{}, err
	}
	return core.SignalResult{Delivered: true, Method: "tty-char"}, nil
}
