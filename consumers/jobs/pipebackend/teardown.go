package pipebackend

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// terminate ends every process of the session: SIGTERM (and SIGCONT, so a
// stopped process can act on it) first, SIGKILL for whatever is left after
// CloseGrace and for anything that appears later, until none is left and
// the program has been reaped, or ctx ends.
func (s *session) terminate(ctx context.Context) error {
	known := map[proc]bool{}
	graceEnd := time.Now().Add(s.opts.CloseGrace)
	sig := syscall.SIGTERM
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for round := 0; ; round++ {
		live := s.members(known)
		groupLive := s.groupAlive()
		if len(live) == 0 && !groupLive && s.isExited() {
			if round > 0 {
				s.opts.Logger.Debug("pipebackend: session terminated", "pid", s.pid, "rounds", round)
			}
			return nil
		}
		if sig == syscall.SIGTERM && time.Now().After(graceEnd) {
			sig = syscall.SIGKILL
			s.opts.Logger.Debug("pipebackend: grace expired, killing", "pid", s.pid, "left", len(live))
		}
		_ = s.grp.signal(sig)
		for _, p := range live {
			p.signal(sig)
		}
		if sig == syscall.SIGTERM {
			s.grp.resume()
			for _, p := range live {
				p.resume()
			}
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			left := s.members(known)
			pids := make([]int, 0, len(left)+1)
			if !s.isExited() {
				pids = append(pids, s.pid)
			}
			for _, p := range left {
				if p.pid != s.pid {
					pids = append(pids, p.pid)
				}
			}
			if len(pids) == 0 && !s.groupAlive() {
				continue // everything went away at the last moment
			}
			return &core.CleanupError{
				Err:       fmt.Errorf("pipebackend: processes survived the teardown: %w", ctx.Err()),
				Survivors: pids,
			}
		}
	}
}

// members returns the live processes of the session: the ones found now
// (see findMembers) and the ones found before that are still alive.
// Remembering them matters because a process loses its link to the session
// (its parent) when that parent dies.
func (s *session) members(known map[proc]bool) []proc {
	for _, p := range findMembers(s.pid, s.marker) {
		known[p] = true
	}
	live := make([]proc, 0, len(known))
	for p := range known {
		if p.alive() {
			live = append(live, p)
		} else {
			delete(known, p)
		}
	}
	return live
}

// groupAlive reports whether the session's process group still has a
// member, where that can be told. On Linux the /proc scan already covers
// the group, so this only reports the group on systems without it.
func (s *session) groupAlive() bool {
	if procScanWorks {
		return false
	}
	return s.grp.exists()
}
