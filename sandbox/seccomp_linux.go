package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock (up to ABI 7) does not govern connecting to a pathname UNIX
// socket, and a network namespace does not either: such a socket is a
// file, reachable from every namespace that sees its path. A session's
// read-only view of the file system takes in the host's sockets (an SSH
// agent, docker.sock, the journal), so the launcher forbids the session
// every UNIX socket that could reach one by name, with a seccomp filter:
//
//   - socket(AF_UNIX, ...) of any type fails with EACCES: no connect(),
//     no sendto() to a path, no abstract socket either;
//   - socketpair(AF_UNIX, ...) works for stream and seqpacket pairs (a
//     pipe between two processes, which cannot be aimed at a path), and
//     fails with EACCES for datagram ones, whose sendto() takes a path;
//   - io_uring_setup fails with EPERM (io_uring makes sockets and connects
//     without these system calls);
//   - a system call of another ABI (x32, or a 32-bit program's) fails with
//     ENOSYS, as it would bypass the numbers checked here.
//
// The filter is inherited by all the program starts and cannot be lifted.

// Offsets in struct seccomp_data.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on little-endian machines
	offArg1 = 24
)

func bpfStmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }

func bpfJump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

func load(off uint32) unix.SockFilter { return bpfStmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, off) }
func ret(v uint32) unix.SockFilter    { return bpfStmt(unix.BPF_RET|unix.BPF_K, v) }
func errno(e unix.Errno) uint32       { return unix.SECCOMP_RET_ERRNO | uint32(e) }

// jeq jumps jt instructions ahead when the accumulator equals k, else jf.
func jeq(k uint32, jt, jf uint8) unix.SockFilter {
	return bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, k, jt, jf)
}

// unixSocketFilter returns the filter described above for this machine's
// system call ABI (auditArch, and x32Bit set on amd64).
func unixSocketFilter() ([]unix.SockFilter, error) {
	if auditArch == 0 {
		return nil, fmt.Errorf("no UNIX socket filter for %s: refusing to run without one", runtime.GOARCH)
	}
	allow := ret(unix.SECCOMP_RET_ALLOW)
	prog := []unix.SockFilter{
		load(offArch),
		jeq(auditArch, 1, 0),
		ret(errno(unix.ENOSYS)),
		load(offNr),
	}
	if x32Bit != 0 {
		prog = append(prog,
			bpfJump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, x32Bit, 0, 1),
			ret(errno(unix.ENOSYS)))
	}
	prog = append(prog,
		// socket(AF_UNIX, ...): refused.
		jeq(unix.SYS_SOCKET, 0, 4),
		load(offArg0),
		jeq(unix.AF_UNIX, 0, 1),
		ret(errno(unix.EACCES)),
		allow,
		// socketpair(AF_UNIX, type, ...): stream and seqpacket only.
		jeq(unix.SYS_SOCKETPAIR, 0, 8),
		load(offArg0),
		jeq(unix.AF_UNIX, 0, 5),
		load(offArg1),
		bpfStmt(unix.BPF_ALU|unix.BPF_AND|unix.BPF_K, 0xf), // without SOCK_NONBLOCK, SOCK_CLOEXEC
		jeq(unix.SOCK_STREAM, 2, 0),
		jeq(unix.SOCK_SEQPACKET, 1, 0),
		ret(errno(unix.EACCES)),
		allow,
		// io_uring_setup: refused.
		jeq(unix.SYS_IO_URING_SETUP, 0, 1),
		ret(errno(unix.EPERM)),
		allow,
	)
	return prog, nil
}

// forbidUnixSockets installs the filter on every thread of this process
// (which then executes the program).
func forbidUnixSockets() error {
	prog, err := unixSocketFilter()
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return fmt.Errorf("seccomp filter: %w", e)
	}
	return nil
}
