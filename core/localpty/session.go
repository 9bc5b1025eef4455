//go:build unix

package localpty

import (
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// session is one program on a local terminal.
type session struct {
	// The questions the platform's files answer override it; the rest
	// answer core.ErrUnsupported (EchoMode and ControlChar off Linux).
	core.UnimplementedProber

	typ     string
	opts    Options
	log     *slog.Logger
	cmd     *exec.Cmd
	pid     int
	master  *os.File        // non-blocking, netpoller-registered
	rc      syscall.RawConn // master's raw access, made once
	ttyName string          // /dev/pts/N
	marker  string
	plat    platform
	// leader reads the wake-ups of the top-level process's main thread
	// (leaderSwitches, before every send) from /proc files held open
	// until the process is reaped or the session closed.
	leader leaderWakes

	exit core.ExitLatch // set once cmd.Wait returned

	postExitBytes int // read since the exit was seen; Read's goroutine only

	// outputRead counts the bytes Read has returned; probe
	// reports it so the service can tell output it has not ingested yet.
	outputRead atomic.Uint64
	// readInFlight is set from just before each read syscall on the
	// master until its bytes are counted in outputRead: between the two,
	// output has left the terminal buffer but is not counted yet (a
	// goroutine can be descheduled there for milliseconds on a loaded
	// machine), and probe must not call that quiet.
	readInFlight atomic.Bool
	// writes counts the writes to the terminal begun (Write and TryWrite):
	// an interrupt's follow-up (followInterrupt) gives up once input was
	// typed after the interrupt, as a job started then may be that input's.
	writes atomic.Uint64

	mu sync.Mutex
	// exitSeen: the waiter saw the exit and set Read's wake-up deadline
	// (Read's drain window starts); exit is set just after.
	exitSeen     bool
	masterClosed bool

	// rd is Read's state for its RawConn callback and tw TryWrite's
	// (guarded by writeSem), made once: a read or a write of the master
	// allocates nothing (a closure holding its results would, per call).
	rd, tw rawOp

	writeSem chan struct{} // one writer at a time
	closeSem chan struct{} // one teardown at a time
	closed   bool          // guarded by closeSem: a Close succeeded
}

func newSession(b *Backend, cmd *exec.Cmd, master *os.File, ttyName, marker string, plat platform) *session {
	rc, _ := master.SyscallConn() // fails only for a nil file
	s := &session{
		typ:      b.typ,
		opts:     b.opts,
		log:      b.opts.Logger,
		cmd:      cmd,
		pid:      cmd.Process.Pid,
		master:   master,
		rc:       rc,
		ttyName:  ttyName,
		marker:   marker,
		plat:     plat,
		writeSem: make(chan struct{}, 1),
		closeSem: make(chan struct{}, 1),
	}
	s.leader.init(s.pid)
	s.rd.fn = func(fd uintptr) bool {
		s.rd.n, s.rd.err = s.countedRead(int(fd), s.rd.p)
		return !errors.Is(s.rd.err, syscall.EAGAIN) // EAGAIN: park until readable
	}
	s.tw.fn = func(fd uintptr) bool {
		s.tw.n, s.tw.err = syscall.Write(int(fd), s.tw.p)
		return true // one attempt: never wait for room
	}
	s.plat.init(s.pid)
	go s.wait()
	return s
}

// wait reaps the top-level process, wakes a Read blocked on the terminal
// so that it can start its drain window, and records the status.
func (s *session) wait() {
	err := WaitChild(s.cmd)
	st := statusOf(s.cmd.ProcessState, err)
	s.mu.Lock()
	s.exitSeen = true
	if !s.masterClosed {
		// A past deadline interrupts a blocked Read; Read then reads on
		// with a drain deadline (see Read).
		_ = s.master.SetReadDeadline(time.Unix(1, 0))
	}
	s.mu.Unlock()
	s.leader.close() // its /proc entry is gone
	s.exit.Set(st)
	s.log.Debug("localpty: top-level process exited", "pid", s.pid, "status", st.String())
}

// statusOf converts a wait result into a core.Status.
func statusOf(ps *os.ProcessState, err error) core.Status {
	if ps == nil {
		st := core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "wait failed"}
		if err != nil {
			st.Reason = "wait failed: " + err.Error()
		}
		return st
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return core.ExitedWithSignal(signalName(ws.Signal()))
	}
	return core.ExitedWithCode(ps.ExitCode())
}

// PID returns the top-level process id.
func (s *session) PID() int { return s.pid }

// Exited is closed when the top-level process has exited.
func (s *session) Exited() <-chan struct{} { return s.exit.Exited() }

// ExitStatus returns the exit status, or core.Running before the exit.
func (s *session) ExitStatus() core.Status { return s.exit.ExitStatus() }

// closeMaster closes the terminal master once.
func (s *session) closeMaster() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.masterClosed {
		return
	}
	s.masterClosed = true
	_ = s.master.Close()
	s.leader.close()
}

// withMaster runs f on the master's descriptor unless the session is
// closed. The descriptor cannot be released while f runs: RawConn.Control
// holds a reference to it, which the master's Close waits for. mu is not
// held across f, so that the system calls of a probe never hold up the
// read loop (Read takes mu) or a write.
func (s *session) withMaster(op string, f func(fd int) error) error {
	s.mu.Lock()
	closed := s.masterClosed
	s.mu.Unlock()
	if closed {
		return errClosed(op)
	}
	var ferr error
	if err := s.rc.Control(func(fd uintptr) { ferr = f(int(fd)) }); err != nil {
		return errClosed(op)
	}
	return ferr
}

// Facts reports that the session answers the settle question (on Linux;
// elsewhere its InputWait fails and the service settles on other
// evidence) and, for the "shell" type, that its prompt carries the OSC
// 133;B marker (see core.Facts).
func (s *session) Facts() core.Facts {
	return core.Facts{PromptMarker: s.typ == TypeShell, WatchesInput: true}
}

// rawOp is the state of a RawConn callback made once per session: the
// buffer it works on, its results and the callback itself.
type rawOp struct {
	p   []byte
	n   int
	err error
	fn  func(fd uintptr) bool
}

// results returns the callback's results and forgets them and its
// buffer.
func (o *rawOp) results() (int, error) {
	n, err := o.n, o.err
	o.p, o.n, o.err = nil, 0, nil
	return n, err
}
