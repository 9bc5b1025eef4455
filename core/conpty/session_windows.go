package conpty

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/ptyseam/ptyseam/core"
)

// terminatedExitCode is the exit code of the processes a terminating
// signal or Close ends: Windows has no signals, only termination.
const terminatedExitCode = 1

// session is one program on a pseudo console.
type session struct {
	typ  string
	opts Options
	log  *slog.Logger
	pid  int
	proc windows.Handle // the top-level process; closed by Close
	inW  windows.Handle // our end of the console's input
	outR windows.Handle // our end of the console's output
	job  windows.Handle

	exit core.ExitLatch

	// The pump reads outR into out until the output pipe ends; Read takes
	// from out. pending is what Read has not returned of the last chunk
	// (Read's goroutine only).
	out      chan []byte
	pending  []byte
	pumpDone chan struct{}
	lastOut  atomic.Int64  // UnixNano of the last output read
	dropOut  chan struct{} // closed by Close: the pump discards output

	// pcMu guards pc: ClosePseudoConsole runs once (closePC), and Resize
	// never uses a closed console.
	pcMu     sync.Mutex
	pc       windows.Handle // 0 once closed
	pcClosed chan struct{}  // closed once ClosePseudoConsole returned
	pcOnce   sync.Once

	// termSig names the signal that terminated the job ("" for none),
	// for the exit status.
	termSig atomic.Pointer[string]

	writeSem chan struct{} // one writer at a time; its holder owns lines
	lines    lineEnds

	closeSem chan struct{} // one Close at a time
	dropOnce sync.Once
	closed   atomic.Bool
}

func newSession(b *Backend, h handles, proc windows.Handle, pid int) *session {
	s := &session{
		typ:      b.typ,
		opts:     b.opts,
		log:      b.opts.Logger,
		pid:      pid,
		proc:     proc,
		inW:      h.inW,
		outR:     h.outR,
		job:      h.job,
		pc:       h.pc,
		out:      make(chan []byte),
		pumpDone: make(chan struct{}),
		dropOut:  make(chan struct{}),
		pcClosed: make(chan struct{}),
		writeSem: make(chan struct{}, 1),
		closeSem: make(chan struct{}, 1),
	}
	s.lastOut.Store(time.Now().UnixNano())
	go s.pump()
	go s.wait()
	return s
}

// pump reads the console's output until the pipe ends (the pseudo console
// was closed) and hands it to Read. It keeps reading while Close runs
// (dropping what it reads), since closing a pseudo console can wait until
// its output has been read.
func (s *session) pump() {
	defer close(s.pumpDone)
	defer close(s.out)
	for {
		buf := make([]byte, 32<<10)
		var n uint32
		err := windows.ReadFile(s.outR, buf, &n, nil)
		if n > 0 {
			s.lastOut.Store(time.Now().UnixNano())
			select {
			case s.out <- buf[:n]:
			case <-s.dropOut:
			}
		}
		if err != nil {
			if err != windows.ERROR_BROKEN_PIPE && err != windows.ERROR_NO_DATA {
				s.log.Debug("conpty: output pipe read failed", "pid", s.pid, "err", err)
			}
			return
		}
	}
}

// wait waits for the top-level process, records its status, then closes
// the pseudo console once the output has been quiet for the drain window,
// which ends the output.
func (s *session) wait() {
	_, _ = windows.WaitForSingleObject(s.proc, windows.INFINITE)
	var code uint32
	st := core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "exit code unknown"}
	if err := windows.GetExitCodeProcess(s.proc, &code); err == nil {
		st = core.ExitedWithCode(int(int32(code)))
	}
	if sig := s.termSig.Load(); sig != nil && code == terminatedExitCode {
		st = core.ExitedWithSignal(*sig)
	}
	s.exit.Set(st)
	s.log.Debug("conpty: top-level process exited", "pid", s.pid, "status", st.String())
	for {
		quiet := time.Since(time.Unix(0, s.lastOut.Load()))
		if quiet >= s.opts.DrainWindow {
			break
		}
		select {
		case <-time.After(s.opts.DrainWindow - quiet):
		case <-s.pcClosed:
			return
		}
	}
	s.closePC()
}

// closePC closes the pseudo console once, in the background (closing it
// can wait until its output has been read); pcClosed is closed when it
// returned.
func (s *session) closePC() {
	s.pcOnce.Do(func() {
		go func() {
			s.pcMu.Lock()
			pc := s.pc
			s.pc = 0
			s.pcMu.Unlock()
			windows.ClosePseudoConsole(pc)
			close(s.pcClosed)
		}()
	})
}

// PID returns the top-level process id.
func (s *session) PID() int { return s.pid }

// Exited is closed when the top-level process has exited.
func (s *session) Exited() <-chan struct{} { return s.exit.Exited() }

// ExitStatus returns the exit status, or core.Running before the exit.
func (s *session) ExitStatus() core.Status { return s.exit.ExitStatus() }

// Read returns the console's output (VT sequences the pseudo console
// renders), and io.EOF once the pseudo console is closed and its output
// read.
func (s *session) Read(p []byte) (int, error) {
	if len(s.pending) == 0 {
		b, ok := <-s.out
		if !ok {
			return 0, io.EOF
		}
		s.pending = b
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

func errClosed(op string) error {
	return &core.Error{Code: core.CodeSessionClosing, Op: op, Msg: "the session is closed"}
}

// Write writes p to the console's input with its line ends turned to "\r"
// (see the package documentation); the count is of p's bytes. It returns
// when ctx is done even if the write is still blocked; such a write may
// still reach the console later, and holds up later writes until it
// does or the session is closed.
func (s *session) Write(ctx context.Context, p []byte) (int, error) {
	select {
	case s.writeSem <- struct{}{}:
	case <-ctx.Done():
		return 0, &core.Error{Code: core.CodeCancelled, Op: "write", Msg: "write cancelled", Err: ctx.Err()}
	}
	if s.closed.Load() {
		<-s.writeSem
		return 0, errClosed("write")
	}
	out, src := s.lines.translate(p)
	if len(out) == 0 {
		<-s.writeSem
		return len(p), nil
	}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-s.writeSem }()
		var total int
		var err error
		for total < len(out) && err == nil {
			var n uint32
			err = windows.WriteFile(s.inW, out[total:], &n, nil)
			total += int(n)
		}
		done <- result{total, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			if s.closed.Load() {
				return consumed(src, r.n), errClosed("write")
			}
			if s.exit.ExitStatus().Kind == core.StatusExited {
				return consumed(src, r.n), &core.Error{Code: core.CodeSessionExited, Op: "write", Msg: "the console is gone", Err: r.err}
			}
			return consumed(src, r.n), &core.Error{Code: core.CodeInternal, Op: "write", Msg: "console input write failed", Err: r.err}
		}
		return len(p), nil
	case <-ctx.Done():
		return 0, &core.Error{Code: core.CodeCancelled, Op: "write", Msg: "write cancelled; the bytes may still reach the console", Err: ctx.Err()}
	}
}

// Signal delivers sig as Windows allows (see the package documentation).
func (s *session) Signal(ctx context.Context, req core.SignalRequest) (core.SignalResult, error) {
	res := core.SignalResult{Leader: true}
	switch req.Signal {
	case core.SIGINT:
		res.Method = "tty-char"
		if _, err := s.Write(ctx, []byte{0x03}); err != nil {
			return res, err
		}
		res.Delivered = true
		return res, nil
	case core.SIGTERM, core.SIGHUP, core.SIGQUIT, core.SIGKILL:
		res.Method = "job-object"
		if req.Signal == core.SIGKILL && !req.AllowLeader {
			return res, core.Errorf(core.CodeSignalRefused, "SIGKILL would end the program itself; set AllowLeader or close the session")
		}
		if err := ctx.Err(); err != nil {
			return res, &core.Error{Code: core.CodeCancelled, Op: "signal", Msg: "signal cancelled", Err: err}
		}
		if s.closed.Load() {
			return res, errClosed("signal")
		}
		if s.activeProcesses() == 0 {
			return res, &core.Error{Code: core.CodeSessionExited, Op: "signal", Msg: "no process of the session is left"}
		}
		name := string(req.Signal)
		s.termSig.CompareAndSwap(nil, &name)
		if err := windows.TerminateJobObject(s.job, terminatedExitCode); err != nil {
			return res, &core.Error{Code: core.CodeInternal, Op: "signal", Msg: "TerminateJobObject failed", Err: err}
		}
		res.Delivered = true
		return res, nil
	case core.SIGTSTP, core.SIGCONT:
		return res, core.Errorf(core.CodeUnsupported, "%s does not exist on Windows (no process groups to stop); SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGKILL do", string(req.Signal))
	}
	return res, core.Errorf(core.CodeInvalidArgument, "unknown signal %q", string(req.Signal))
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// activeProcesses returns how many processes of the job run, or -1 when
// the job cannot be asked.
func (s *session) activeProcesses() int {
	var acc jobAccounting
	if err := windows.QueryInformationJobObject(s.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&acc)), uint32(unsafe.Sizeof(acc)), nil); err != nil {
		return -1
	}
	return int(acc.ActiveProcesses)
}

// Resize changes the pseudo console's size.
func (s *session) Resize(ctx context.Context, size core.Size) error {
	if err := ctx.Err(); err != nil {
		return &core.Error{Code: core.CodeCancelled, Op: "resize", Msg: "resize cancelled", Err: err}
	}
	if size.Rows == 0 || size.Cols == 0 {
		return core.Errorf(core.CodeInvalidArgument, "a terminal size needs rows and columns")
	}
	s.pcMu.Lock()
	defer s.pcMu.Unlock()
	if s.pc == 0 {
		if s.closed.Load() {
			return errClosed("resize")
		}
		return &core.Error{Code: core.CodeSessionExited, Op: "resize", Msg: "the pseudo console was closed after the program exited"}
	}
	if err := windows.ResizePseudoConsole(s.pc, coord(size)); err != nil {
		if err == syscall.Errno(windows.E_NOTIMPL) { // Wine 8.0's stub
			return &core.Error{Code: core.CodeUnsupported, Op: "resize", Msg: "this system's pseudo console cannot be resized", Err: err}
		}
		return &core.Error{Code: core.CodeInternal, Op: "resize", Msg: "ResizePseudoConsole failed", Err: err}
	}
	return nil
}

// Close terminates every process of the job, closes the pseudo console
// and releases the handles. It returns a *core.CleanupError naming the
// program when ctx ends before its processes are gone; Close may then be
// retried.
func (s *session) Close(ctx context.Context) error {
	select {
	case s.closeSem <- struct{}{}:
	case <-ctx.Done():
		return &core.CleanupError{Err: ctx.Err()}
	}
	defer func() { <-s.closeSem }()
	if s.closed.Load() {
		return nil
	}
	if s.activeProcesses() != 0 {
		name := "close"
		s.termSig.CompareAndSwap(nil, &name)
		if err := windows.TerminateJobObject(s.job, terminatedExitCode); err != nil {
			s.log.Debug("conpty: TerminateJobObject failed", "pid", s.pid, "err", err)
		}
	}
	// Wait for the top-level process and the rest of the job.
	for {
		n := s.activeProcesses()
		if n == 0 && s.exit.ExitStatus().Kind == core.StatusExited {
			break
		}
		select {
		case <-ctx.Done():
			return &core.CleanupError{Err: ctx.Err(), Survivors: []int{s.pid}}
		case <-time.After(5 * time.Millisecond):
		}
	}
	s.dropOnce.Do(func() { close(s.dropOut) })
	s.closePC()
	for _, c := range []chan struct{}{s.pcClosed, s.pumpDone} {
		select {
		case <-c:
		case <-ctx.Done():
			return &core.CleanupError{Err: ctx.Err()}
		}
	}
	s.closed.Store(true)
	// A write still blocked on the input pipe failed when the console
	// closed; take the writer's place so that inW is no longer in use.
	select {
	case s.writeSem <- struct{}{}:
	case <-ctx.Done():
		return &core.CleanupError{Err: ctx.Err()}
	}
	_ = windows.CloseHandle(s.inW)
	_ = windows.CloseHandle(s.outR)
	_ = windows.CloseHandle(s.proc)
	_ = windows.CloseHandle(s.job)
	<-s.writeSem // a later Write sees closed before it touches inW
	return nil
}

// Compile-time checks of the interfaces sessions implement. Sessions are
// no core.Prober: cmd.exe prints no OSC 133 marker, and there is nothing
// to ask about the console.
var (
	_ core.Backend        = (*Backend)(nil)
	_ core.BackendSession = (*session)(nil)
)
