//go:build unix

package localpty

import (
	"errors"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// start opens a terminal pair, makes the master non-blocking and starts the
// program on the slave. On error nothing is left behind.
func (b *Backend) start(sp spawnSpec) (*session, error) {
	ptmx, tty, ttyName, devpts, err := b.openPTY()
	if err != nil {
		return nil, wrapErr(core.CodeSpawnFailed, err, "cannot open a pseudo-terminal")
	}
	defer func() { _ = tty.Close() }()
	if devpts != nil {
		// The launcher has its copy once started; ours only held the
		// terminal file system until then.
		defer func() { _ = devpts.Close() }()
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: sp.size.Rows, Cols: sp.size.Cols}); err != nil {
		_ = ptmx.Close()
		return nil, wrapErr(core.CodeSpawnFailed, err, "cannot set the terminal size")
	}
	master, err := nonblockingDup(ptmx)
	_ = ptmx.Close()
	if err != nil {
		return nil, wrapErr(core.CodeSpawnFailed, err, "cannot prepare the terminal")
	}
	DefaultChildSignals()
	cmd, plat, err := b.startCmd(sp, tty, devpts)
	if err != nil {
		_ = master.Close()
		var ce *core.Error
		if errors.As(err, &ce) {
			return nil, err // typed already (a sandbox refused)
		}
		return nil, wrapErr(core.CodeSpawnFailed, err, "cannot start "+sp.argv[0])
	}
	// The child holds the slave now; our copy would keep the terminal open
	// after the program exits and hide the end of output.
	_ = tty.Close()
	s := newSession(b, cmd, master, ttyName, sp.marker, plat)
	b.opts.Logger.Debug("localpty: started", "type", b.typ, "pid", s.pid, "tty", s.ttyName, "cgroup", plat.describe())
	return s, nil
}

// nonblockingDup returns a non-blocking duplicate of f registered with the
// Go netpoller, so that deadlines work and Close unblocks a Read.
// creack/pty leaves its master in blocking mode (it calls Fd()), where
// deadlines silently do nothing.
func nonblockingDup(f *os.File) (*os.File, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, os.NewSyscallError("dup", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return nil, os.NewSyscallError("setnonblock", err)
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}

// newCmd prepares the program on tty: a new session (setsid) with tty as
// its controlling terminal (fd 0), unless the request asked for none.
func newCmd(sp spawnSpec, tty *os.File) *exec.Cmd {
	cmd := exec.Command(sp.argv[0], sp.argv[1:]...)
	cmd.Env = sp.env
	cmd.Dir = sp.dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: !sp.noCtty, Ctty: 0}
	return cmd
}
