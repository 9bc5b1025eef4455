package localpty

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// terminate ends every process of the session: politely (SIGHUP, SIGTERM,
// SIGCONT), then after the grace period by force. fg (the foreground group
// before the terminal was closed) needs no special handling on Linux: its
// members are in the cgroup, or found by the scan.
func (s *session) terminate(ctx context.Context, _ int) error {
	if s.plat.cg != nil {
		return s.terminateCgroup(ctx)
	}
	return s.terminateScan(ctx)
}

func (s *session) terminateCgroup(ctx context.Context) error {
	cg := s.plat.cg
	cg.signal(unix.SIGHUP, unix.SIGTERM, unix.SIGCONT)
	empty, err := cg.waitEmpty(ctx, time.Now().Add(s.opts.CloseGrace))
	if err == nil && !empty {
		s.log.Debug("localpty: grace period over; killing the cgroup", "pid", s.pid, "cgroup", cg.path)
		if err = cg.kill(); err == nil {
			_, err = cg.waitEmpty(ctx, time.Time{})
		}
	}
	if err != nil {
		return &core.CleanupError{Err: fmt.Errorf("emptying cgroup %s: %w", cg.path, err), Survivors: cg.procs()}
	}
	return nil
}

// proc names a process by pid and start time, so that a reused pid is
// never taken for it.
type proc struct {
	pid   int
	start uint64
}

// terminateScan is the teardown without a cgroup: the session's processes
// are found by scanning /proc (see scanSession).
func (s *session) terminateScan(ctx context.Context) error {
	targets, err := s.scanSession()
	if err != nil {
		return &core.CleanupError{Err: err}
	}
	signalProcs(targets, unix.SIGHUP, unix.SIGTERM, unix.SIGCONT)
	graceEnd := time.Now().Add(s.opts.CloseGrace)
	for time.Now().Before(graceEnd) {
		if err := sleepCtx(ctx, 5*time.Millisecond); err != nil {
			return s.scanFailure(err)
		}
		if anyAlive(targets) {
			continue
		}
		// Everything we knew is gone; look for newcomers.
		if targets, err = s.scanSession(); err != nil {
			return &core.CleanupError{Err: err}
		}
		if len(targets) == 0 {
			return nil
		}
		signalProcs(targets, unix.SIGHUP, unix.SIGTERM, unix.SIGCONT)
	}
	s.log.Debug("localpty: grace period over; killing survivors", "pid", s.pid)
	for {
		if targets, err = s.scanSession(); err != nil {
			return &core.CleanupError{Err: err}
		}
		if len(targets) == 0 {
			return nil
		}
		signalProcs(targets, unix.SIGKILL)
		if err := sleepCtx(ctx, 2*time.Millisecond); err != nil {
			return s.scanFailure(err)
		}
	}
}

// scanFailure builds the error for a scan teardown cut short by ctx.
func (s *session) scanFailure(cause error) error {
	targets, _ := s.scanSession()
	pids := make([]int, 0, len(targets))
	for _, p := range targets {
		pids = append(pids, p.pid)
	}
	if len(pids) == 0 {
		return nil // everything went away just as time ran out
	}
	return &core.CleanupError{Err: fmt.Errorf("processes survived: %w", cause), Survivors: pids}
}

// scanSession returns the session's live processes (zombies count as
// gone): every process whose environment holds the session marker, the
// members of the top-level process's session, processes seen in an earlier
// scan, and all their descendants. It reads /proc/PID/stat and
// /proc/PID/environ of every process, so it only runs at teardown.
func (s *session) scanSession() ([]proc, error) {
	if subreaping.Load() {
		// No StartChild between fork and registration while we look, so
		// that a fresh child is never taken for an escapee.
		childMu.Lock()
		defer childMu.Unlock()
	}
	pids, err := procfs.ListPIDs()
	if err != nil {
		return nil, fmt.Errorf("scanning /proc: %w", err)
	}
	want := MarkerEnv + "=" + s.marker
	self := unixGetpid()
	stats := make(map[int]procfs.Stat, len(pids))
	buf := make([]byte, 0, 4096)
	for _, pid := range pids {
		if pid == self {
			continue
		}
		st, err := procfs.ReadStat(pid, buf)
		if err != nil || st.Gone() || st.PPID == 2 || pid == 2 {
			continue // gone, a zombie, or a kernel thread
		}
		stats[pid] = st
	}
	// Session ids are pids: while any process has sid == s.pid the kernel
	// never hands that pid out again. If a different process now has our
	// leader's pid, the session id belongs to someone else.
	sidOurs := true
	if st, ok := stats[s.pid]; ok && st.StartTime != s.plat.leaderStart {
		sidOurs = false
	}
	in := make(map[int]bool)
	for pid, st := range stats {
		switch {
		case sidOurs && st.Session == s.pid:
			in[pid] = true
		case s.plat.tracked[pid] == st.StartTime && s.plat.tracked[pid] != 0:
			in[pid] = true
		default:
			env, err := procfs.ReadFile(procfs.Path(pid, "environ"), buf)
			if err == nil && procfs.EnvironHas(env, want) {
				in[pid] = true
			}
		}
	}
	// Escapees this process adopted as a subreaper: a child it did not
	// start, outside any session's cgroup leaf, started after our leader.
	// Nothing else ties it to a session (setsid dropped the session id, a
	// cleared environment the marker), so it is ended with the session
	// that may have started it: another session open at the same time may
	// lose such a process early, but none survives its session.
	if subreaping.Load() {
		for pid, st := range stats {
			if st.PPID == self && !in[pid] && st.StartTime >= s.plat.leaderStart && !isStartedChild(pid) && !inSessionCgroup(pid, buf) {
				in[pid] = true
			}
		}
	}
	// Descendants of members (children start after their parents).
	for changed := true; changed; {
		changed = false
		for pid, st := range stats {
			if in[pid] || !in[st.PPID] {
				continue
			}
			if parent, ok := stats[st.PPID]; ok && st.StartTime >= parent.StartTime {
				in[pid] = true
				changed = true
			}
		}
	}
	out := make([]proc, 0, len(in))
	for pid := range in {
		p := proc{pid: pid, start: stats[pid].StartTime}
		s.plat.tracked[pid] = p.start
		out = append(out, p)
	}
	return out, nil
}

// alive reports whether p still runs (same pid and start time, not a
// zombie).
func (p proc) alive() bool {
	st, err := procfs.ReadStat(p.pid, nil)
	return err == nil && st.StartTime == p.start && !st.Gone()
}

func anyAlive(ps []proc) bool {
	for _, p := range ps {
		if p.alive() {
			return true
		}
	}
	return false
}

// signalProcs sends sigs to each process that is still the one we found.
// A pidfd pins the process, so the start time checked after opening it
// cannot belong to a successor; kill(2) is the fallback without pidfds.
func signalProcs(ps []proc, sigs ...unix.Signal) {
	for _, p := range ps {
		fd, err := unix.PidfdOpen(p.pid, 0)
		if err == nil {
			if p.alive() {
				for _, sig := range sigs {
					_ = unix.PidfdSendSignal(fd, sig, nil, 0)
				}
			}
			_ = unix.Close(fd)
			continue
		}
		if errors.Is(err, unix.ESRCH) || !p.alive() {
			continue
		}
		for _, sig := range sigs {
			_ = unix.Kill(p.pid, sig)
		}
	}
}

func unixGetpid() int { return unix.Getpid() }

// inSessionCgroup reports whether pid is in a session's cgroup leaf: its
// session's Close ends it.
func inSessionCgroup(pid int, buf []byte) bool {
	b, err := procfs.ReadFile(procfs.Path(pid, "cgroup"), buf)
	return err == nil && bytes.Contains(b, []byte("/"+leafPrefix))
}
