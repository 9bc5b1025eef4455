//go:build unix

package localpty

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// foregroundPGID returns the terminal's foreground process group
// (TIOCGPGRP on the master).
func (s *session) foregroundPGID(op string) (int, error) {
	var pgid int
	err := s.withMaster(op, func(fd int) error {
		var err error
		pgid, err = unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		return err
	})
	if err != nil {
		var ce *core.Error
		if errors.As(err, &ce) {
			return 0, err
		}
		return 0, wrapErr(core.CodeSessionExited, err, "cannot read the foreground process group")
	}
	if pgid <= 0 {
		return 0, wrapErr(core.CodeSessionExited, errNoForeground, "")
	}
	return pgid, nil
}

// signalTries bounds the reads of the foreground group when it vanishes
// before the kill.
const signalTries = 14

// Signal delivers req.Signal to the terminal's foreground process group
// with kill(-pgid). SIGINT, SIGQUIT and SIGTSTP first discard the input
// typed ahead that no program has read, as the terminal does for their
// characters (unless its NOFLSH flag is set). SIGKILL aimed at the top-level process's own group is
// refused with CodeSignalRefused unless req.AllowLeader is set. An
// interrupt that the shell may hold back (it reached the shell, or a
// command's process not yet running its program, between two commands of
// a list) is followed up on the command the shell starts in spite of it,
// within a few seconds (see followInterrupt).
func (s *session) Signal(ctx context.Context, req core.SignalRequest) (core.SignalResult, error) {
	if err := ctx.Err(); err != nil {
		return core.SignalResult{}, err
	}
	sig, ok := signalNumbers[req.Signal]
	if !ok {
		return core.SignalResult{}, core.Errorf(core.CodeInvalidArgument, "unknown signal %q", req.Signal)
	}
	// The group can vanish between TIOCGPGRP and kill (a command just
	// finished, and the shell has yet to take the terminal back): read it
	// again, pausing a little longer each time (about 100 ms in all) so a
	// descheduled shell gets to reclaim the terminal.
	var lastErr error
	for try := range signalTries {
		if try > 0 {
			select {
			case <-ctx.Done():
				return core.SignalResult{}, ctx.Err()
			case <-time.After(time.Duration(try) * time.Millisecond):
			}
		}
		pgid, err := s.foregroundPGID("signal")
		if err != nil {
			return core.SignalResult{}, err
		}
		leader := pgid == s.pid // the top-level process leads its own group (setsid)
		if req.Signal == core.SIGKILL && leader && !req.AllowLeader {
			return core.SignalResult{TargetPGID: pgid, Leader: true, Method: "pgid"},
				core.Errorf(core.CodeSignalRefused, "SIGKILL would hit the session's top-level process group %d", pgid)
		}
		if err := s.plat.verifyGroup(s.pid, pgid); err != nil {
			return core.SignalResult{}, wrapErr(core.CodeInternal, err, "the foreground group failed verification")
		}
		var risk interruptRisk
		var hangupHeld bool
		switch sig {
		case unix.SIGINT:
			risk = s.interruptRiskOf(pgid)
		case unix.SIGHUP:
			hangupHeld = s.hangupMayBeHeld(pgid)
		}
		if sig == unix.SIGINT || sig == unix.SIGQUIT || sig == unix.SIGTSTP {
			s.discardTypedAhead() // as the terminal's own character would
		}
		ignored := s.groupIgnores(pgid, sig)
		err = unix.Kill(-pgid, sig)
		if err == nil {
			s.log.Debug("localpty: signal delivered", "pid", s.pid, "pgid", pgid, "signal", string(req.Signal))
			switch {
			case sig == unix.SIGINT:
				s.followInterrupt(ctx, risk)
			case hangupHeld:
				s.followHangup(ctx, pgid)
			}
			return core.SignalResult{Delivered: true, TargetPGID: pgid, Leader: leader, Method: "pgid", Ignored: ignored}, nil
		}
		if !errors.Is(err, unix.ESRCH) {
			return core.SignalResult{}, wrapErr(core.CodeInternal, err, fmt.Sprintf("kill(-%d)", pgid))
		}
		lastErr = err
	}
	return core.SignalResult{}, wrapErr(core.CodeSessionExited, lastErr, "the foreground process group is gone")
}

// Resize changes the terminal size; the foreground group gets SIGWINCH.
func (s *session) Resize(ctx context.Context, size core.Size) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if size.Rows == 0 || size.Cols == 0 {
		return core.Errorf(core.CodeInvalidArgument, "terminal size %dx%d has a zero dimension", size.Rows, size.Cols)
	}
	ws := &unix.Winsize{Row: size.Rows, Col: size.Cols}
	return s.withMaster("resize", func(fd int) error {
		if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, ws); err != nil {
			return wrapErr(core.CodeInternal, err, "TIOCSWINSZ")
		}
		return nil
	})
}
