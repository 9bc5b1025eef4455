package docker

import (
	"context"
	"strings"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
)

// Signal delivers sig as well as the engine allows. The engine signals a
// container's init process, never a process group, and cannot signal an
// exec at all. So:
//
//   - SIGINT, SIGQUIT and SIGTSTP to a shell session, and to any exec
//     session, are typed as the TTY's control characters, which the line
//     discipline delivers to the foreground job (Method "tty-char").
//   - In a new container, other signals (and those three to a program
//     that is not a shell) go to the container with the engine's kill,
//     which docker-init forwards to the program (Method "docker-kill",
//     Leader true).
//   - SIGKILL hits the top-level program, so it is refused with
//     core.ErrSignalRefused unless req.AllowLeader is set; then it kills
//     the container's init (everything in it dies), or every process of
//     an exec session.
//   - Other signals to an exec session fail with core.ErrUnsupported.
func (s *session) Signal(ctx context.Context, req core.SignalRequest) (core.SignalResult, error) {
	if s.isExited() {
		return core.SignalResult{}, s.errGone()
	}
	if req.Signal == core.SIGKILL && !req.AllowLeader {
		return core.SignalResult{}, core.Errorf(core.CodeSignalRefused, "SIGKILL would hit the session's top-level program")
	}
	char, hasChar := core.DefaultKey(req.Signal) // the engine's TTYs keep the usual keys
	if hasChar && (s.shell || s.execID != "") {
		if _, err := s.Write(ctx, []byte{char}); err != nil {
			return core.SignalResult{}, err
		}
		return core.SignalResult{Delivered: true, Method: "tty-char"}, nil
	}
	if s.execID != "" {
		if req.Signal != core.SIGKILL {
			return core.SignalResult{}, core.Errorf(core.CodeUnsupported, "the engine cannot signal an exec session with %s (only SIGINT, SIGQUIT and SIGTSTP, typed on its terminal, and SIGKILL)", req.Signal)
		}
		if err := s.sweep(ctx, "KILL"); err != nil {
			return core.SignalResult{}, err
		}
		return core.SignalResult{Delivered: true, Leader: true, Method: "docker-exec-kill"}, nil
	}
	s.ownKill.Add(1)
	_, err := s.b.cli.ContainerKill(ctx, s.containerID, client.ContainerKillOptions{Signal: strings.TrimPrefix(string(req.Signal), "SIG")})
	if err != nil {
		s.ownKill.Add(-1)
		err = s.callFailed(ctx, "docker kill "+string(req.Signal), err)
		if req.Signal == core.SIGKILL && core.CodeOf(err) == core.CodeSessionExited {
			// The program died before the kill, most likely of an
			// earlier signal: the kill's work is done.
			return core.SignalResult{Delivered: true, Leader: true, Method: "docker-kill"}, nil
		}
		return core.SignalResult{}, err
	}
	return core.SignalResult{Delivered: true, Leader: true, Method: "docker-kill"}, nil
}
