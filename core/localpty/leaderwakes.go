//go:build unix

package localpty

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// leaderWakes reads the wake-up count of the top-level process's main
// thread (its voluntary context switches, from its /proc status), the
// baseline every send to a shell at its prompt takes before its write,
// and keeps the last reading for as long as it provably holds.
//
// The kernel formats the whole status file for that one count (about
// 12 us), while the thread's schedstat costs about 1.3 us. A reading is
// kept with the schedstat read just before it; a later schedstat equal
// to that one means the thread has not left a CPU since (see
// procfs.Schedstat), so its count is still the one kept. The service
// warms the reading once a send settled on the shell's prompt
// (core.Prober.WarmBaseline), off the next send's path: when that send comes,
// its baseline is one schedstat read.
type leaderWakes struct {
	status procFile // /proc/PID/task/PID/status
	sched  procFile // /proc/PID/task/PID/schedstat

	// mu is held across a reading, so that a send arriving while the
	// cache is warmed waits for that reading and then uses it.
	mu    sync.Mutex
	at    procfs.Schedstat // read just before wakes
	wakes uint64
	held  bool // wakes and at are a reading
	state byte // the thread's state at the last status read ('R' running)

	statusReads atomic.Uint64 // readings of the status file (for tests)
}

// init names the files of the thread pid (the top-level process's).
func (l *leaderWakes) init(pid int) {
	l.status.path = procfs.TaskPath(pid, pid, "status")
	l.sched.path = procfs.TaskPath(pid, pid, "schedstat")
}

// close releases the files once the process is gone: reads fail from
// then on.
func (l *leaderWakes) close() {
	l.status.close()
	l.sched.close()
}

// warm takes a reading now, unless one is being taken. A thread found
// still running (a shell between its prompt and its read, held off the
// CPU on a busy machine) is read again a little later, a few times: a
// reading taken while it runs rarely holds until the next send.
func (l *leaderWakes) warm() { l.warmTry(0) }

// Warm readings of a thread found running are tried again after
// warmRetryAfter, at most warmTries times in all.
const (
	warmRetryAfter = time.Millisecond
	warmTries      = 4
)

func (l *leaderWakes) warmTry(try int) {
	if !l.mu.TryLock() {
		return
	}
	_, err := l.readLocked()
	running := err == nil && l.state == 'R'
	l.mu.Unlock()
	if running && try+1 < warmTries {
		time.AfterFunc(warmRetryAfter, func() { l.warmTry(try + 1) })
	}
}

// read returns the thread's count, the kept one while it holds.
func (l *leaderWakes) read() (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.readLocked()
}

// leaderSwitches returns the voluntary context switches of the top-level
// process's main thread (one schedstat read while the kept reading holds,
// else a status read too): the count probe reports as Switches when that
// thread alone waits on the terminal.
func (s *session) leaderSwitches() (uint64, error) { return s.leader.read() }
