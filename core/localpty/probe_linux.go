package localpty

import (
	"encoding/binary"
	"slices"
	"strconv"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// Bounds that keep a probe cheap whatever the session runs.
const (
	maxProbeProcs = 4096 // processes walked from the top-level process
	maxSelectFDs  = 1024 // FD_SETSIZE
	maxPollFDs    = 1024
)

// probe reports the terminal's foreground process group and
// whether it waits for terminal input. The group comes from TIOCGPGRP; its
// members are the top-level process's descendants (walked through
// /proc/PID/task/TID/children) whose process group is that group. The
// group reads input when every live task is sleeping (state S) and at
// least one is blocked in read on the terminal, in select/pselect6 or
// poll/ppoll watching it for input (the fd set or pollfd array is read
// from /proc/PID/mem), or in epoll_wait/epoll_pwait on an epoll instance
// whose fdinfo lists the terminal for input. Switches sums the voluntary
// context switches of the tasks blocked on the terminal, and Readers names
// them (readersID): the reading thread of a multi-threaded program can
// change from one read to the next. A group asleep on a daemon whose
// process reads the terminal for it (delegateReaders) reads input too,
// with that process's task as its reader. An event loop's read does not
// count while the main thread of another process of the group sleeps on
// a timer (a process at work: a debuggee that starts, a pipeline's
// sleep).
func (s *session) probe() (foreground, error) {
	pgid, err := s.foregroundPGID("probe")
	if err != nil {
		return foreground{}, err
	}
	st := foreground{PGID: pgid, Leader: pgid == s.pid}
	if hook := testHookProbeBeforeTasks.Load(); hook != nil {
		(*hook)(s)
	}
	var buf [2048]byte
	var readerArr [4]int
	readers := readerArr[:0]   // the tasks blocked on the terminal
	var onSockets []socketWait // the tasks blocked on sockets, not on the terminal
	var sleepers []int         // the processes whose main thread sleeps on a timer
	live, sleeping, blocked := 0, true, false
	group := s.groupMembers(pgid, buf[:0])
	for _, m := range group {
		for _, tid := range m.tids {
			b, err := procfs.ReadFile(procfs.TaskPath(m.pid, tid, "status"), buf[:0])
			if err != nil {
				continue // the task exited
			}
			ts, err := procfs.ParseStatus(b)
			if err != nil {
				continue
			}
			if ts.State == 'Z' || ts.State == 'X' {
				continue
			}
			live++
			if ts.State != 'S' {
				sleeping = false
				continue
			}
			// Only the wake-ups of tasks blocked on the terminal count:
			// a runtime's other threads (Go's sysmon, a JVM's timers)
			// wake all the time without reading anything.
			if !sleeping {
				continue
			}
			w := s.taskWaitsOnTTY(m.pid, tid, buf[:0], group)
			switch {
			case w.onTTY:
				blocked = true
				st.Relay = st.Relay || w.relay
				st.EventLoop = st.EventLoop || w.eventLoop
				st.SideThread = st.SideThread || tid != m.pid
				st.Switches += ts.VoluntarySwitches
				readers = append(readers, tid)
				st.ReaderPIDs = appendNew(st.ReaderPIDs, m.pid)
			case len(w.sockets) > 0:
				onSockets = append(onSockets, socketWait{m.pid, w.sockets})
			case w.timer && tid == m.pid:
				sleepers = append(sleepers, m.pid)
			}
		}
	}
	if live > 0 && sleeping && !blocked {
		// Asleep, but not on the terminal: maybe on a daemon that reads
		// it for the group (gpg waiting for gpg-agent's pinentry).
		for _, d := range s.delegateReaders(group, onSockets, buf[:0]) {
			blocked = true
			st.Switches += d.switches
			readers = append(readers, d.tid)
			st.ReaderPIDs = appendNew(st.ReaderPIDs, d.pid)
		}
	}
	st.Readers = readersID(readers)
	st.ReadingInput = live > 0 && sleeping && blocked
	if st.ReadingInput && st.EventLoop && slices.ContainsFunc(sleepers, func(pid int) bool { return !slices.Contains(st.ReaderPIDs, pid) }) {
		// An event loop watches the terminal while it waits on other
		// work: a debuggee it started and that is still starting. Only
		// main threads count: a runtime's timer threads (Go's sysmon)
		// sleep so all the time.
		st.ReadingInput = false
	}
	// Measured after the tasks were seen: output a task wrote before it
	// blocked in its read is in the terminal now, or was read from it.
	// Measured before the tasks, a question written and a read begun in
	// between went unseen (the program waiting, its question unread).
	st.PendingOutput = s.pendingOutput()
	// Loaded after PendingOutput was measured: output that left the
	// terminal buffer before that measurement is counted here, unless a
	// read is between its system call and its count. Such bytes are in
	// transit, so the output is not settled: at least one is pending.
	if s.readInFlight.Load() && st.PendingOutput <= 0 {
		st.PendingOutput = 1
	}
	st.OutputRead = s.outputRead.Load()
	st.PendingInput = -1
	if st.ReadingInput {
		st.PendingInput = s.pendingInput()
	}
	return st, nil
}

// testHookProbeBeforeTasks, when set by a test, runs in probe before it
// looks at the foreground group's tasks.
var testHookProbeBeforeTasks atomic.Pointer[func(*session)]

// pendingInput returns the bytes of input the program could read but has
// not (TIOCINQ on the terminal's slave side, see openSlave), or -1 when it
// cannot tell. In canonical mode only complete lines count, as only they
// can be read.
func (s *session) pendingInput() int {
	fd, err := s.openSlave()
	if err != nil {
		return -1
	}
	defer unix.Close(fd)
	// Bytes written to the master reach the slave's line discipline
	// through the kernel's flip buffer, pushed by a worker that a loaded
	// machine may run tens of milliseconds later; TIOCINQ does not count
	// them. A poll that finds no input waits for that worker
	// (n_tty_poll flushes the buffer work), so everything written before
	// this call is counted.
	_, _ = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
	n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
	if err != nil {
		return -1
	}
	return n
}

// pendingOutput returns the bytes of output waiting in the terminal to be
// read from its master side (TIOCINQ), or -1 when it cannot tell.
func (s *session) pendingOutput() int {
	n := -1
	_ = s.withMaster("probe", func(fd int) error {
		// Output reaches the master through the same deferred flip
		// buffer as input reaches the slave; a poll that finds nothing
		// waits for it (see pendingInput).
		_, _ = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
		v, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
		if err == nil {
			n = v
		}
		return err
	})
	return n
}

// member is a process of the foreground group with its threads.
type member struct {
	pid  int
	tids []int
}

// groupMembers walks the top-level process's descendants and returns those
// in process group pgid. The group leader itself is also looked at, in
// case it was re-parented out of the tree.
func (s *session) groupMembers(pgid int, buf []byte) []member {
	var out []member
	seen := make(map[int]bool, 4)
	queue := []int{s.pid}
	if pgid != s.pid {
		queue = append(queue, pgid)
	}
	for len(queue) > 0 && len(seen) < maxProbeProcs {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		st, err := procfs.ReadStat(pid, buf)
		if err != nil {
			continue
		}
		tids, err := procfs.ListTasks(pid)
		if err != nil {
			continue
		}
		if st.PGRP == pgid {
			out = append(out, member{pid: pid, tids: tids})
		}
		for _, tid := range tids {
			b, err := procfs.ReadFile(procfs.TaskPath(pid, tid, "children"), buf)
			if err != nil {
				continue
			}
			queue = append(queue, procfs.ParsePIDList(b)...)
		}
	}
	return out
}

// taskWait is what a blocked task waits for.
type taskWait struct {
	onTTY bool // it waits for input from the session's terminal
	// sockets are the socket descriptors among those it waits on.
	sockets []int
	// relay: it also waits on a TCP socket or a UNIX stream connection to
	// a process outside the group, or on a PTY master, so it forwards the
	// terminal to a peer (an ssh or telnet client, nc) or to a terminal of
	// its own (script), and its wait says nothing about whether the
	// program at the far end waits for input.
	relay bool
	// eventLoop: it waits in epoll, an event loop that may be at work
	// (timers, other descriptors) while it watches the terminal.
	eventLoop bool
	// timer: it sleeps on a timer.
	timer bool
}

// taskWaitsOnTTY reports whether the task is blocked waiting for input
// from the session's terminal, and whether it is a relay; group is the
// foreground group's members (relaySocketAmong).
func (s *session) taskWaitsOnTTY(pid, tid int, buf []byte, group []member) taskWait {
	kind, fds := blockedInputFDs(pid, tid, buf)
	switch kind {
	case waitRead:
		if fds[0] < 0 || fds[0] > 1<<20 {
			return taskWait{}
		}
		l := procfs.FDLink(pid, fds[0])
		if _, ok := procfs.ParseSocketInode(l); ok {
			return taskWait{sockets: fds}
		}
		return taskWait{onTTY: s.isTTYLink(l)}
	case waitEpoll:
		w := s.classifyWait(pid, fds, group)
		w.eventLoop = w.onTTY
		return w
	case waitTimer:
		return taskWait{timer: true}
	}
	return s.classifyWait(pid, fds, group)
}

// blockedInputFDs returns how the task is blocked waiting for input and on
// which descriptors: read (or recv) on one, or the input set of its
// select, poll or epoll; no descriptors when it is not blocked so
// (waitTimer when it sleeps on a timer).
func blockedInputFDs(pid, tid int, buf []byte) (waitKind, []int) {
	b, err := procfs.ReadFile(procfs.TaskPath(pid, tid, "syscall"), buf)
	if err != nil {
		return waitOther, nil
	}
	sc, err := procfs.ParseSyscall(b)
	if err != nil || !sc.Blocked {
		return waitOther, nil
	}
	switch kind := waitSyscalls[sc.Nr]; kind {
	case waitTimer:
		return kind, nil
	case waitRead:
		return kind, []int{int(sc.Args[0])}
	case waitSelect:
		return kind, selectInputFDs(pid, sc.Args[0], sc.Args[1])
	case waitPoll:
		return kind, pollInputFDs(pid, sc.Args[0], sc.Args[1])
	case waitEpoll:
		return kind, epollInputFDs(pid, sc.Args[0], buf)
	}
	if sc.Nr == unix.SYS_RECVFROM || sc.Nr == unix.SYS_RECVMSG {
		return waitRead, []int{int(sc.Args[0])}
	}
	return waitOther, nil
}

// classifyWait looks at the descriptors a task waits on for input.
func (s *session) classifyWait(pid int, fds []int, group []member) taskWait {
	var w taskWait
	var sockets []uint64
	var socketFDs []int
	ptyMaster := false
	for _, fd := range fds {
		l := procfs.FDLink(pid, fd)
		switch {
		case s.isTTYLink(l):
			w.onTTY = true
		case isPTYMasterLink(l):
			ptyMaster = true
		default:
			if ino, ok := procfs.ParseSocketInode(l); ok {
				sockets, socketFDs = append(sockets, ino), append(socketFDs, fd)
			}
		}
	}
	w.sockets = socketFDs
	switch {
	case w.onTTY && ptyMaster:
		w.relay = true
	case w.onTTY && len(sockets) > 0:
		w.relay = relaySocketAmong(pid, sockets, group) || unixRelayAmong(pid, socketFDs, group)
	}
	return w
}

// isPTYMasterLink reports whether a descriptor's link names a PTY master:
// a task that waits on the session's terminal and on a terminal of its
// own relays that one (script, expect, asciinema rec, sudo with use_pty),
// and its wait says nothing of whether the program there has answered.
func isPTYMasterLink(l string) bool { return l == "/dev/ptmx" || l == "/dev/pts/ptmx" }

// relaySocketAmong reports whether one of the socket inodes that pid
// watches beside the terminal is a TCP connection whose far end the probe
// cannot see waiting: a TCP socket of pid's network namespace (listed in
// /proc/PID/net/tcp or tcp6) whose peer no task of the foreground group
// waits on for input, or with bytes queued on either end. A socketpair
// (the self-pipe of an event loop, as in prompt_toolkit) is none; neither
// is a connection on loopback to a process of the group that waits to
// read from it with nothing in flight, as node inspect's debuggee waits
// for its debugger. A peer that sleeps on anything else (a timer: a far
// end still at work) keeps the connection a relay.
func relaySocketAmong(pid int, inodes []uint64, group []member) bool {
	for _, table := range []string{"net/tcp", "net/tcp6"} {
		b, err := procfs.ReadFile(procfs.Path(pid, table), nil)
		if err != nil {
			continue
		}
		for _, ino := range inodes {
			sock, ok := procfs.FindNetSocket(b, func(s procfs.NetSocket) bool { return s.Inode == ino })
			if !ok {
				continue
			}
			peer, ok := procfs.FindNetSocket(b, func(p procfs.NetSocket) bool {
				return p.Local == sock.Remote && p.Remote == sock.Local
			})
			if !ok || sock.Queued || peer.Queued || !groupWaitsOnSocket(group, peer.Inode) {
				return true
			}
		}
	}
	return false
}

// groupWaitsOnSocket reports whether a task of the group is blocked
// waiting for input on the socket with inode ino.
func groupWaitsOnSocket(group []member, ino uint64) bool {
	want := "socket:[" + strconv.FormatUint(ino, 10) + "]"
	var buf [2048]byte
	for _, m := range group {
		for _, tid := range m.tids {
			if taskWaitsOn(m.pid, tid, want, buf[:0]) {
				return true
			}
		}
	}
	return false
}

// taskWaitsOn reports whether the task is blocked waiting for input on the
// descriptor whose link is want ("socket:[123]"): reading or receiving
// from it, or watching it in select, poll or epoll.
func taskWaitsOn(pid, tid int, want string, buf []byte) bool {
	_, fds := blockedInputFDs(pid, tid, buf)
	for _, fd := range fds {
		if procfs.FDLink(pid, fd) == want {
			return true
		}
	}
	return false
}

// isTTYLink reports whether an fd link names the session's terminal.
// "/dev/tty" is the controlling terminal, which for a member of the
// terminal's foreground group is ours.
func (s *session) isTTYLink(l string) bool {
	return l == s.ttyName || l == "/dev/tty"
}

// selectInputFDs reads the read fd_set a select/pselect6 call was given
// and returns the descriptors set in it.
func selectInputFDs(pid int, nfds, readfds uint64) []int {
	if nfds == 0 || readfds == 0 {
		return nil
	}
	n := int(min(nfds, maxSelectFDs))
	set := make([]byte, (n+7)/8)
	if !procfs.ReadMem(pid, readfds, set) {
		return nil
	}
	var fds []int
	for fd := range n {
		if set[fd/8]&(1<<(fd%8)) != 0 {
			fds = append(fds, fd)
		}
	}
	return fds
}

// pollInputFDs reads the pollfd array of a poll/ppoll call and returns the
// descriptors polled for input.
func pollInputFDs(pid int, fds, nfds uint64) []int {
	if nfds == 0 || fds == 0 {
		return nil
	}
	n := int(min(nfds, maxPollFDs))
	arr := make([]byte, 8*n) // struct pollfd { int fd; short events, revents; }
	if !procfs.ReadMem(pid, fds, arr) {
		return nil
	}
	var out []int
	for i := range n {
		e := arr[8*i:]
		fd := int32(binary.NativeEndian.Uint32(e))
		events := binary.NativeEndian.Uint16(e[4:])
		if fd >= 0 && events&pollIn != 0 {
			out = append(out, int(fd))
		}
	}
	return out
}

// epollInputFDs returns the descriptors an epoll instance watches for
// input (from /proc/PID/fdinfo/EPFD).
func epollInputFDs(pid int, epfd uint64, buf []byte) []int {
	if epfd > 1<<20 {
		return nil
	}
	b, err := procfs.ReadFile(procfs.Path(pid, "fdinfo/"+strconv.Itoa(int(epfd))), buf)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range procfs.ParseEpollFdinfo(b) {
		if t.Events&epollIn != 0 {
			out = append(out, t.FD)
		}
	}
	return out
}

const (
	pollIn  = 0x1 // POLLIN
	epollIn = 0x1 // EPOLLIN
)
