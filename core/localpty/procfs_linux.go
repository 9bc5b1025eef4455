package localpty

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Small /proc readers. They use raw system calls rather than os.File: a
// probe reads a handful of files and os.Open's poller registration attempt
// would double its cost.

// readProcFile reads a whole /proc file into buf (grown when needed).
func readProcFile(path string, buf []byte) ([]byte, error) {
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

func procPath(pid int, rest string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + rest
}

func taskPath(pid, tid int, rest string) string {
	return "/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(tid) + "/" + rest
}

// readStat reads and parses /proc/PID/stat.
func readStat(pid int, buf []byte) (procStat, error) {
	b, err := readProcFile(procPath(pid, "stat"), buf)
	if err != nil {
		return procStat{}, err
	}
	return parseStat(b)
}

// listTasks returns the thread ids of pid.
func listTasks(pid int) ([]int, error) { return listDir(procPath(pid, "task")) }

// listPIDs returns every process id in /proc.
func listPIDs() ([]int, error) { return listDir("/proc") }

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

// fdLink returns the target of /proc/PID/fd/N.
func fdLink(pid, fd int) string {
	var b [128]byte
	n, err := unix.Readlink(procPath(pid, "fd/"+strconv.Itoa(fd)), b[:])
	if err != nil || n <= 0 {
		return ""
	}
	return string(b[:n])
}

// readMem reads len(p) bytes of pid's memory at addr (needs the same
// access as ptrace; the session's children qualify).
func readMem(pid int, addr uint64, p []byte) bool {
	if addr == 0 || addr > 1<<62 {
		return false
	}
	fd, err := unix.Open(procPath(pid, "mem"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer func() { _ = unix.Close(fd) }()
	n, err := unix.Pread(fd, p, int64(addr))
	return err == nil && n == len(p)
}
