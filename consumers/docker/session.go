package docker

import (
	"context"
	"net"
	"sync"
	"sync/atomic"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/relay"
)

// session is one program on a container TTY: a core.BackendSession. The
// container half (a created container, or an exec in an existing one)
// lives in container.go and exec.go; this file is the relay they share.
type session struct {
	// Its core.Prober answers the exit cause alone.
	core.UnimplementedProber

	b      *Backend
	t      *Target
	shell  bool
	marker string

	containerID string // the container the program runs in
	created     bool   // the backend created it (Close removes it)
	execID      string // the exec, for a session in an existing container

	conn  net.Conn      // the hijacked attach stream
	relay *relay.Stream // its output and input

	ctx    context.Context // lives until Close finished
	cancel context.CancelFunc

	ownKill atomic.Int32 // kills the session sent that the engine has not reported yet
	foreign atomic.Bool  // someone else killed or removed the container

	exit      core.ExitLatch
	following bool // a watcher follows the program's end (follow): it sets exit

	streamDone <-chan struct{} // the attach stream ended
	closer     core.CloseGuard
	closed     chan struct{} // Close has finished its engine work
	relOnce    sync.Once
	wg         sync.WaitGroup
}

func newSession(b *Backend, sp spawnParams) *session {
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{
		b: b, t: sp.t, shell: sp.shell, marker: sp.Marker,
		ctx: ctx, cancel: cancel,
		closed: make(chan struct{}),
	}
	// Input ends with the output: the attach stream's read side ends only
	// when the engine ends the stream.
	s.relay = relay.New(relay.Config{Name: "docker", Exited: s.exit.Exited(), Closed: s.closed,
		Gone: s.errGone, Cause: s.ExitCause})
	s.streamDone = s.relay.OutputDone()
	return s
}

// attach keeps the hijacked stream and starts its relay.
func (s *session) attach(hj client.HijackedResponse) {
	s.conn = hj.Conn
	s.relay.Start(hj.Conn, hj.Reader)
}

// follow runs watch, the goroutine that learns the program's end from
// the engine and records it, until Close.
func (s *session) follow(watch func()) {
	s.following = true
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		watch()
	}()
}

// setExit records the exit once and reports whether this call did.
func (s *session) setExit(st core.Status) bool { return s.exit.Set(st) }

// isClosing reports that Close has begun.
func (s *session) isClosing() bool { return s.closer.IsClosing() }

// isExited reports that the exit is known.
func (s *session) isExited() bool { return s.exit.Done() }

// PID returns 0: the program's pid lives in the container's namespace.
func (s *session) PID() int { return 0 }

// ContainerID returns the id of the container the session runs in.
func (s *session) ContainerID() string { return s.containerID }

// Read returns the TTY's output. io.EOF comes once the output ended and
// the exit is known.
func (s *session) Read(p []byte) (int, error) { return s.relay.Read(p) }

// Write sends input to the TTY. It returns when ctx is done even if the
// program does not read; bytes already handed to the stream are still
// sent.
func (s *session) Write(ctx context.Context, p []byte) (int, error) { return s.relay.Write(ctx, p) }

// errGone is the error of a call on an ended session: it matches
// core.ErrSessionExited and, when the container was stopped under the
// session, ErrContainerStopped.
func (s *session) errGone() error {
	if cause := s.ExitCause(); cause != nil {
		return &core.Error{Code: core.CodeSessionExited, Msg: "the container session ended" + goneNext, Err: cause}
	}
	return core.Errorf(core.CodeSessionExited, "the container session has ended"+goneNext)
}

// goneNext says what to do with an ended session.
const goneNext = "; read its last output and exit status, then close the session"

// ExitCause returns ErrContainerStopped when the session ended because
// its container was stopped, killed or removed by someone else,
// ErrEngineLost when its connection to the engine was lost; nil otherwise
// (see core.Prober).
func (s *session) ExitCause() error {
	switch s.ExitStatus().Reason {
	case ReasonContainerStopped:
		return ErrContainerStopped
	case ReasonEngineLost:
		return ErrEngineLost
	}
	return nil
}

// Exited is closed when the program's exit is known.
func (s *session) Exited() <-chan struct{} { return s.exit.Exited() }

// ExitStatus returns the exit status, core.Running before.
func (s *session) ExitStatus() core.Status { return s.exit.ExitStatus() }

// Resize changes the TTY's size.
func (s *session) Resize(ctx context.Context, size core.Size) error {
	if s.isExited() {
		return s.errGone()
	}
	var err error
	if s.execID != "" {
		_, err = s.b.cli.ExecResize(ctx, s.execID, client.ExecResizeOptions{Height: uint(size.Rows), Width: uint(size.Cols)})
	} else {
		_, err = s.b.cli.ContainerResize(ctx, s.containerID, client.ContainerResizeOptions{Height: uint(size.Rows), Width: uint(size.Cols)})
	}
	if err != nil {
		return s.callFailed(ctx, "docker resize", err)
	}
	return nil
}

// statusFromCode maps an engine exit code to a status. The engine reports
// a death by signal N as 128+N, as a shell does; codes 129 to 159 are
// reported as that signal (a program that exits with such a code on its
// own is indistinguishable through the engine).
func statusFromCode(code int) core.Status {
	if code > 128 && code-128 < len(signalNames) && signalNames[code-128] != "" {
		return core.ExitedWithSignal(signalNames[code-128])
	}
	return core.ExitedWithCode(code)
}

// signalNames are Linux's signal numbers.
var signalNames = [...]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
	8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE",
	14: "SIGALRM", 15: "SIGTERM", 16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP",
	20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ",
	26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR", 31: "SIGSYS",
}

var (
	_ core.BackendSession = (*session)(nil)
	_ core.Prober         = (*session)(nil)
)
