package localpty

import (
	"os"
	"os/exec"
	"strconv"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openPTY opens the session's terminal pair. It returns the master, the
// slave, the slave's name as the program sees it, and, for a sandboxed
// session, the detached mount of the terminal file system the pair lives
// in, which the launcher attaches at /dev/pts of the session's mount
// namespace. That file system is a devpts instance of its own, made for
// the session and never mounted where the server or another session can
// reach it: the session's /dev/pts holds its terminal and the ones it
// opens itself, nothing else.
func (b *Backend) openPTY() (ptmx, tty *os.File, name string, devpts *os.File, err error) {
	if b.opts.Sandbox == nil {
		ptmx, tty, err = pty.Open()
		if err != nil {
			return nil, nil, "", nil, err
		}
		return ptmx, tty, tty.Name(), nil, nil
	}
	fs, err := unix.Fsopen("devpts", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return nil, nil, "", nil, os.NewSyscallError("fsopen devpts", err)
	}
	defer unix.Close(fs)
	// The terminals are the server's user's (0620); every process of the
	// session may open ptmx to make terminals of its own there.
	for _, kv := range [][2]string{{"mode", "0620"}, {"ptmxmode", "0666"}} {
		if err := unix.FsconfigSetString(fs, kv[0], kv[1]); err != nil {
			return nil, nil, "", nil, os.NewSyscallError("fsconfig devpts "+kv[0], err)
		}
	}
	if err := unix.FsconfigCreate(fs); err != nil {
		return nil, nil, "", nil, os.NewSyscallError("fsconfig devpts create", err)
	}
	mnt, err := unix.Fsmount(fs, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return nil, nil, "", nil, os.NewSyscallError("fsmount devpts", err)
	}
	devpts = os.NewFile(uintptr(mnt), "devpts")
	m, err := unix.Openat(mnt, "ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = devpts.Close()
		return nil, nil, "", nil, os.NewSyscallError("open ptmx", err)
	}
	ptmx = os.NewFile(uintptr(m), "ptmx")
	fail := func(op string, err error) (*os.File, *os.File, string, *os.File, error) {
		_ = ptmx.Close()
		_ = devpts.Close()
		return nil, nil, "", nil, os.NewSyscallError(op, err)
	}
	if err := unix.IoctlSetPointerInt(m, unix.TIOCSPTLCK, 0); err != nil {
		return fail("unlockpt", err)
	}
	n, err := unix.IoctlGetUint32(m, unix.TIOCGPTN)
	if err != nil {
		return fail("ptsname", err)
	}
	s, err := openPeer(m, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC)
	if err != nil {
		return fail("open the terminal's slave", err)
	}
	name = "/dev/pts/" + strconv.FormatUint(uint64(n), 10)
	return ptmx, os.NewFile(uintptr(s), name), name, devpts, nil
}

// openPeer opens the slave of master fd (TIOCGPTPEER), wherever its
// terminal file system is mounted, or not mounted at all.
func openPeer(master, flags int) (int, error) {
	r, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(master), unix.TIOCGPTPEER, uintptr(flags))
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}

// openSlave opens the session's terminal's slave side for the moment
// (non-blocking, without becoming our controlling terminal), through its
// master, as the server cannot reach a sandboxed session's by name.
func (s *session) openSlave() (int, error) {
	fd := -1
	err := s.withMaster("open the terminal", func(m int) error {
		var err error
		fd, err = openPeer(m, unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC)
		return err
	})
	return fd, err
}

// passDevpts gives the program the session's terminal file system as
// descriptor devptsFD (none when devpts is nil).
func passDevpts(cmd *exec.Cmd, devpts *os.File) {
	if devpts != nil {
		cmd.ExtraFiles = []*os.File{devpts} // fd 3 == devptsFD
	}
}
