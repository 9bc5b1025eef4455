package localpty

import (
	"slices"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// maxDelegateProcs bounds the processes looked at for one probe.
const maxDelegateProcs = 128

// socketWait is a task of the foreground group blocked waiting on
// sockets, and not on the terminal: the socket descriptors it waits on.
type socketWait struct {
	pid int
	fds []int
}

// appendNew appends v to s unless s holds it.
func appendNew(s []int, v int) []int {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// delegateTask is a task outside the foreground group blocked reading the
// session's terminal for it.
type delegateTask struct {
	pid, tid int
	switches uint64 // its voluntary context switches
}

// delegateReaders returns the tasks that read the session's terminal on
// behalf of a foreground group that waits on a daemon: the group waits
// for input on a UNIX stream connection to a process outside it (gpg to
// gpg-agent, emacsclient -t to the emacs daemon), and a process of the
// daemon (pinentry) opened the terminal by its name and is blocked
// reading it. The group then waits for input as surely as if it read the
// terminal itself.
//
// The daemon is found two ways: the process that listened on the socket
// (its SO_PEERCRED) and its descendants, and the session's own processes
// outside the group (ownDaemons), since a daemon the session started
// forked after it listened, and the process that listened is gone. A
// daemon outside the session whose listener is gone (one started long
// ago, or by systemd's socket activation) is not found. At most
// maxDelegateProcs processes are looked at, and only a descriptor that
// names the terminal's device counts ("/dev/tty" in another session is
// that session's terminal).
func (s *session) delegateReaders(group []member, onSockets []socketWait, buf []byte) []delegateTask {
	var peers []int
	for _, w := range onSockets {
		peers = append(peers, unixPeersOutside(w.pid, w.fds, group)...)
	}
	if len(peers) == 0 {
		return nil
	}
	var out []delegateTask
	seen := make(map[int]bool, 8)
	look := func(pid int) {
		if seen[pid] || len(seen) >= maxDelegateProcs || slices.ContainsFunc(group, func(m member) bool { return m.pid == pid }) {
			return
		}
		seen[pid] = true
		tids, err := procfs.ListTasks(pid)
		if err != nil {
			return
		}
		for _, tid := range tids {
			if t, ok := s.taskReadsTTYByName(pid, tid, buf); ok {
				out = append(out, t)
			}
		}
	}
	for _, peer := range peers {
		queue := []int{peer}
		for len(queue) > 0 && len(seen) < maxDelegateProcs {
			pid := queue[0]
			queue = queue[1:]
			look(pid)
			if kids, err := procfs.ListChildren(pid, buf); err == nil {
				queue = append(queue, kids...)
			}
		}
	}
	for _, pid := range s.ownDaemons(buf) {
		look(pid)
	}
	return out
}

// ownDaemons lists processes a daemon the session started may be among:
// the session's cgroup leaf; without one, when this process is a child
// subreaper (an agent in a container, whose cgroups are read-only),
// the processes it adopted and their descendants, as a daemon that
// forked and left its parent is adopted. Adopted processes of other
// sessions are among them: only one that reads this terminal by its
// name counts.
func (s *session) ownDaemons(buf []byte) []int {
	if s.plat.cg != nil {
		return s.plat.cg.procs()
	}
	if !subreaping.Load() {
		return nil
	}
	kids, err := procfs.ListChildren(unixGetpid(), buf)
	if err != nil {
		return nil
	}
	var out []int
	queue := slices.DeleteFunc(kids, isStartedChild)
	for len(queue) > 0 && len(out) < maxDelegateProcs {
		pid := queue[0]
		queue = queue[1:]
		out = append(out, pid)
		if more, err := procfs.ListChildren(pid, buf); err == nil {
			queue = append(queue, more...)
		}
	}
	return out
}

// taskReadsTTYByName reports whether the task sleeps blocked waiting for
// input on a descriptor that names the session's terminal.
func (s *session) taskReadsTTYByName(pid, tid int, buf []byte) (delegateTask, bool) {
	b, err := procfs.ReadFile(procfs.TaskPath(pid, tid, "status"), buf)
	if err != nil {
		return delegateTask{}, false
	}
	ts, err := procfs.ParseStatus(b)
	if err != nil || ts.State != 'S' {
		return delegateTask{}, false
	}
	_, fds := blockedInputFDs(pid, tid, buf)
	for _, fd := range fds {
		if procfs.FDLink(pid, fd) == s.ttyName {
			return delegateTask{pid: pid, tid: tid, switches: ts.VoluntarySwitches}, true
		}
	}
	return delegateTask{}, false
}
