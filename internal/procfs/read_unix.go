//go:build unix

package procfs

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Small /proc readers. They use raw system calls rather than os.File: a
// probe reads a handful of files and os.Open's poller registration attempt
// would double its cost.

// ReadFile reads a whole /proc file into buf (grown when needed).
func ReadFile(path string, buf []byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = unix.Close(fd) }()
	if cap(buf) == 0 {
		buf = make([]byte, 0, 1024)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// ListChildren returns the children of pid: the union of its threads'
// children files (/proc/PID/task/TID/children), a few reads where finding
// them among every process on the machine takes one read per process.
// The kernel lists a child under the thread that started it, or under the
// thread a subreaper's adopted process was given to. A child that appears
// or exits while the files are read may be missed: callers that must see
// every child look again later (a reaper on its next signal or tick). It
// fails when pid is gone or the kernel has no children files
// (CONFIG_PROC_CHILDREN).
func ListChildren(pid int, buf []byte) ([]int, error) {
	tids, err := ListTasks(pid)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, tid := range tids {
		b, err := ReadFile(TaskPath(pid, tid, "children"), buf)
		if err == unix.ESRCH || err == unix.ENOENT && tid != pid {
			continue // the thread ended since the listing
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: TaskPath(pid, tid, "children"), Err: err}
		}
		out = append(out, ParsePIDList(b)...)
	}
	return out, nil
}

// listDir returns the numeric entries of a /proc directory.
func listDir(path string) ([]int, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer func() { _ = unix.Close(fd) }()
	var buf [4096]byte
	var names []string
	for {
		n, err := unix.ReadDirent(fd, buf[:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "getdents", Path: path, Err: err}
		}
		if n <= 0 {
			return parseTaskIDs(names), nil
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}

// FDLink returns the target of /proc/PID/fd/N.
func FDLink(pid, fd int) string {
	var b [128]byte
	n, err := unix.Readlink(Path(pid, "fd/"+strconv.Itoa(fd)), b[:])
	if err != nil || n <= 0 {
		return ""
	}
	return string(b[:n])
}

// ReadMem reads len(p) bytes of pid's memory at addr (needs the same
// access as ptrace; the session's children qualify).
func ReadMem(pid int, addr uint64, p []byte) bool {
	if addr == 0 || addr > 1<<62 {
		return false
	}
	fd, err := unix.Open(Path(pid, "mem"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer func() { _ = unix.Close(fd) }()
	n, err := unix.Pread(fd, p, int64(addr))
	return err == nil && n == len(p)
}
