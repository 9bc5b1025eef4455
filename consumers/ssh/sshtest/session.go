package sshtest

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/ptyseam/ptyseam/consumers/ssh/internal/procscan"
	"github.com/ptyseam/ptyseam/core/localpty"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/sys/unix"
)

type ptyReq struct {
	Term     string
	Columns  uint32
	Rows     uint32
	Width    uint32
	Height   uint32
	Modelist string
}

type winChange struct {
	Columns uint32
	Rows    uint32
	Width   uint32
	Height  uint32
}

type nameValue struct {
	Name  string
	Value string
}

// session serves one session channel.
type session struct {
	srv  *Server
	ch   gossh.Channel
	reqs <-chan *gossh.Request
	pty  *ptyReq
	env  []string

	mu      sync.Mutex
	cmd     *exec.Cmd
	ptmx    *os.File // non-blocking dup of the PTY master
	started bool
	done    chan struct{} // the program exited and was reported
	replied chan struct{} // the shell or exec request was answered
	marker  string        // NAME=VALUE in the environment of the session's processes
	replyMu sync.Mutex    // held while a request is handled and answered
	wg      sync.WaitGroup
}

func newSession(s *Server, ch gossh.Channel, reqs <-chan *gossh.Request) *session {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return &session{srv: s, ch: ch, reqs: reqs, done: make(chan struct{}), replied: make(chan struct{}),
		marker: "PTYSEAM_SSHTEST_SESSION=" + hex.EncodeToString(b)}
}

// rfcSignals are the signal names of RFC 4254 that OpenSSH delivers.
var rfcSignals = map[string]syscall.Signal{
	"ABRT": syscall.SIGABRT, "ALRM": syscall.SIGALRM, "FPE": syscall.SIGFPE,
	"HUP": syscall.SIGHUP, "ILL": syscall.SIGILL, "INT": syscall.SIGINT,
	"KILL": syscall.SIGKILL, "PIPE": syscall.SIGPIPE, "QUIT": syscall.SIGQUIT,
	"SEGV": syscall.SIGSEGV, "TERM": syscall.SIGTERM, "USR1": syscall.SIGUSR1,
	"USR2": syscall.SIGUSR2,
}

func (s *session) serve() {
	for r := range s.reqs {
		// Answer each request before the exit report can go out.
		s.replyMu.Lock()
		ok := false
		switch r.Type {
		case "pty-req":
			var p ptyReq
			if gossh.Unmarshal(r.Payload, &p) == nil && !s.isStarted() {
				s.pty, ok = &p, true
			}
		case "env":
			var nv nameValue
			if gossh.Unmarshal(r.Payload, &nv) == nil && s.srv.cfg.accepts(nv.Name) {
				s.env = append(s.env, nv.Name+"="+nv.Value)
				ok = true
			}
		case "shell":
			ok = s.start(s.srv.cfg.shell())
		case "exec":
			var m struct{ Command string }
			if gossh.Unmarshal(r.Payload, &m) == nil {
				ok = s.start([]string{s.srv.cfg.shell()[0], "-c", m.Command})
			}
		case "window-change":
			var w winChange
			if gossh.Unmarshal(r.Payload, &w) == nil {
				ok = s.resize(w.Rows, w.Columns)
			}
		case "signal":
			var m struct{ Signal string }
			if gossh.Unmarshal(r.Payload, &m) == nil && !s.srv.cfg.IgnoreSignals {
				if sig, known := rfcSignals[m.Signal]; known {
					ok = s.signal(sig)
				}
			}
		}
		if r.WantReply {
			_ = r.Reply(ok, nil)
		}
		if ok && (r.Type == "shell" || r.Type == "exec") {
			close(s.replied)
		}
		s.replyMu.Unlock()
	}
	// The channel is gone (closed by the client, or the connection died):
	// hang the program up.
	s.hangup()
	// Sweep up what left the process groups (setsid, double forks).
	procscan.KillAll(s.marker, 0, 0)
	s.wg.Wait()
}

func (s *session) isStarted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

func (s *session) environ() []string {
	cfg := &s.srv.cfg
	home, _ := os.UserHomeDir()
	if home == "" {
		home = os.TempDir()
	}
	term := "dumb"
	if s.pty != nil && s.pty.Term != "" {
		term = s.pty.Term
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "USER=" + cfg.user(), "LOGNAME=" + cfg.user(),
		"SHELL=" + cfg.shell()[0], "TERM=" + term, "LANG=C.UTF-8",
	}
	env = append(env, cfg.Env...)
	env = append(env, s.env...)
	return append(env, s.marker)
}

func (s *session) start(argv []string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return false
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = s.environ()
	cmd.Dir, _ = os.UserHomeDir()
	// As a real sshd does, start the program with the default signal
	// actions, whatever this process ignores.
	localpty.DefaultChildSignals()
	if s.pty != nil {
		ws := &pty.Winsize{Rows: uint16(s.pty.Rows), Cols: uint16(s.pty.Columns)}
		f, err := pty.StartWithSize(cmd, ws)
		if err != nil {
			return false
		}
		// Use a non-blocking duplicate so that Close unblocks reads.
		fd, err := unix.Dup(int(f.Fd()))
		_ = f.Close()
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return false
		}
		_ = unix.SetNonblock(fd, true)
		s.ptmx = os.NewFile(uintptr(fd), "ptmx")
		s.cmd, s.started = cmd, true
		s.wg.Add(2)
		outDone := make(chan struct{})
		go func() {
			defer s.wg.Done()
			defer close(outDone)
			_, _ = io.Copy(s.ch, s.ptmx)
		}()
		go func() {
			defer s.wg.Done()
			s.run(outDone)
		}()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			_, _ = io.Copy(s.ptmx, s.ch)
		}()
		return true
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = s.ch
	cmd.Stderr = s.ch.Stderr()
	in, err := cmd.StdinPipe()
	if err != nil {
		return false
	}
	if err := cmd.Start(); err != nil {
		return false
	}
	s.cmd, s.started = cmd, true
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		_, _ = io.Copy(in, s.ch)
		_ = in.Close()
	}()
	go func() {
		defer s.wg.Done()
		s.run(nil)
	}()
	return true
}

// run waits for the program, drains its output, reports the exit and
// closes the channel.
func (s *session) run(outDone chan struct{}) {
	defer close(s.done)
	_ = s.cmd.Wait()
	// The exit report must follow the answer to the request that started
	// the program.
	<-s.replied
	if outDone != nil {
		// The PTY reports end of output once every holder of the slave is
		// gone; a background process holding it must not stall the exit.
		t := time.NewTimer(2 * time.Second)
		select {
		case <-outDone:
		case <-t.C:
		}
		t.Stop()
		_ = s.ptmx.Close()
	}
	s.replyMu.Lock()
	defer s.replyMu.Unlock()
	ws, _ := s.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		name := strings.TrimPrefix(unix.SignalName(ws.Signal()), "SIG")
		_, _ = s.ch.SendRequest("exit-signal", false, gossh.Marshal(struct {
			Signal     string
			CoreDumped bool
			Error      string
			Lang       string
		}{Signal: name}))
	} else {
		_, _ = s.ch.SendRequest("exit-status", false, gossh.Marshal(struct{ Status uint32 }{uint32(s.cmd.ProcessState.ExitCode())}))
	}
	_ = s.ch.CloseWrite()
	_ = s.ch.Close()
}

func (s *session) resize(rows, cols uint32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ptmx == nil {
		if s.pty != nil && !s.started {
			s.pty.Rows, s.pty.Columns = rows, cols
			return true
		}
		return false
	}
	return control(s.ptmx, func(fd int) error {
		return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(rows), Col: uint16(cols)})
	}) == nil
}

// signal delivers sig to the program's process group, as OpenSSH does.
func (s *session) signal(sig syscall.Signal) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || s.cmd.Process == nil {
		return false
	}
	return syscall.Kill(-s.cmd.Process.Pid, sig) == nil
}

// hangup ends the program: SIGHUP to its group and to the terminal's
// foreground group, then SIGKILL if it has not exited within a second.
func (s *session) hangup() {
	s.mu.Lock()
	cmd, f := s.cmd, s.ptmx
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	groups := []int{cmd.Process.Pid}
	if f != nil {
		fg := 0
		_ = control(f, func(fd int) (err error) {
			fg, err = unix.IoctlGetInt(fd, unix.TIOCGPGRP)
			return err
		})
		if fg > 0 && fg != cmd.Process.Pid {
			groups = append(groups, fg)
		}
	}
	kill := func(sig syscall.Signal) {
		for _, g := range groups {
			_ = syscall.Kill(-g, sig)
		}
	}
	kill(syscall.SIGHUP)
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-s.done:
		kill(syscall.SIGKILL) // stragglers of the group
		return
	case <-t.C:
	}
	kill(syscall.SIGKILL)
	<-s.done
}

// control runs fn on f's descriptor without switching it to blocking mode
// (as f.Fd would).
func control(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}
