package localpty

import (
	"path/filepath"
	"strconv"

	"github.com/ptyseam/ptyseam/core"
)

// Sandbox confines every process of a session, on Linux: the file system
// through Landlock (applied by a launcher, see Launcher), UNIX sockets
// through a seccomp filter, the terminals, /dev and /proc through a mount
// namespace where the session has a devpts instance, a /dev and a /proc
// of its own, the network through a new network namespace, and memory,
// processes and CPU through the session's cgroup v2 leaf. It needs a
// server running as root. Whatever part the kernel cannot enforce makes
// the spawn fail with UNSUPPORTED: a sandboxed session never runs
// unconfined. See docs/localpty.md for what is and is not enforced.
type Sandbox struct {
	// Launcher is the argv prefix of the program that applies Landlock to
	// itself and then executes the session's program: the backend runs
	// Launcher + LauncherArgs(sandbox) + "--" + argv. A Go program serves
	// it with package github.com/ptyseam/ptyseam/sandbox (ptyseam itself:
	// its own executable and "sandbox-exec"). Required.
	Launcher []string
	// ReadOnly lists absolute paths the session may read and execute
	// (directories with everything beneath them). Empty means "/": the
	// whole file system readable, nothing writable but Writable.
	ReadOnly []string
	// Writable lists absolute paths the session may also write, create and
	// remove in. The terminal and /dev/null, /dev/zero, /dev/full,
	// /dev/tty and /dev/pts are always writable.
	Writable []string
	// Network keeps the host's network. When false the session runs in a
	// new network namespace with a loopback interface of its own, up: the
	// session's programs reach each other on 127.0.0.1 and ::1, and
	// nothing else, not even 127.0.0.1 of the host.
	Network bool
	// MemoryMax is the cgroup's memory.max in bytes (0: no limit); the
	// kernel's OOM killer ends a process of the session that exceeds it.
	// Swap is turned off for the session (memory.swap.max 0).
	MemoryMax int64
	// PidsMax is the cgroup's pids.max (0: no limit): fork fails with
	// EAGAIN beyond it.
	PidsMax int
	// CPUMax is the CPU time the session may use, in CPUs (0.5: half of
	// one), as the cgroup's cpu.max (0: no limit).
	CPUMax float64
	// TmpBytes sizes a /tmp of the session's own: a writable tmpfs the
	// launcher mounts over /tmp, which no other session and not the host
	// sees, and whose pages count against MemoryMax. The paths under /tmp
	// that ReadOnly and Writable list stay reachable at their places in
	// it (the read-only ones mounted read-only). 0, or /tmp itself in
	// ReadOnly or Writable, leaves the host's /tmp as those lists say.
	// With it the session's home directory ($HOME) gets a writable layer
	// of the same size over the host's (an overlay): caches, dot files
	// and git config --global work, reads see the host's files, and no
	// write reaches the host; the paths under it that the lists name, and
	// the working directory there, stay the host's as for /tmp. A home
	// that is listed itself, or lies below a writable path, is the host's.
	TmpBytes int64
}

// DefaultSandboxWritable are the device paths every sandboxed session may
// write: the terminal's (/dev/pts is the session's own devpts instance)
// and the harmless ones programs open by name.
var DefaultSandboxWritable = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/pts"}

// LauncherArgs encodes the file system and network parts of sb for the
// launcher: "-ro PATH" and "-rw PATH" pairs, "-tmp BYTES" for a /tmp of
// the session's own (see Sandbox.TmpBytes), and "-loopback" to bring up
// the loopback of the session's own network namespace (without
// Sandbox.Network). Package sandbox parses them.
func LauncherArgs(sb *Sandbox) []string {
	ro := sb.ReadOnly
	if len(ro) == 0 {
		ro = []string{"/"}
	}
	var args []string
	for _, p := range ro {
		args = append(args, "-ro", p)
	}
	for _, p := range append(append([]string(nil), DefaultSandboxWritable...), sb.Writable...) {
		args = append(args, "-rw", p)
	}
	if sb.privateTmp() {
		args = append(args, "-tmp", strconv.FormatInt(sb.TmpBytes, 10))
	}
	if !sb.Network {
		args = append(args, "-loopback")
	}
	return args
}

// privateTmp reports whether the session gets a /tmp of its own: a size
// is set and neither list grants the host's /tmp itself.
func (sb *Sandbox) privateTmp() bool {
	if sb.TmpBytes <= 0 {
		return false
	}
	for _, p := range append(append([]string(nil), sb.ReadOnly...), sb.Writable...) {
		if filepath.Clean(p) == "/tmp" {
			return false
		}
	}
	return true
}

// validate checks the policy itself (not the kernel).
func (sb *Sandbox) validate() error {
	if len(sb.Launcher) == 0 || sb.Launcher[0] == "" {
		return core.Errorf(core.CodeInvalidArgument, "the sandbox needs a Launcher (see localpty.Sandbox)")
	}
	for _, p := range append(append([]string(nil), sb.ReadOnly...), sb.Writable...) {
		if !filepath.IsAbs(p) {
			return core.Errorf(core.CodeInvalidArgument, "sandbox path %s is not absolute", strconv.Quote(p))
		}
	}
	if sb.MemoryMax < 0 || sb.PidsMax < 0 || sb.CPUMax < 0 || sb.TmpBytes < 0 {
		return core.Errorf(core.CodeInvalidArgument, "sandbox limits must not be negative")
	}
	return nil
}

// limited reports whether sb sets a cgroup limit.
func (sb *Sandbox) limited() bool { return sb.MemoryMax > 0 || sb.PidsMax > 0 || sb.CPUMax > 0 }

// devptsFD is the descriptor under which a sandboxed session's launcher
// receives the terminal file system of its own (see openPTY).
const devptsFD = 3

// wrap returns the argv that runs argv under the launcher, which first
// moves itself into the cgroup v1 leaves dirs (a hybrid host's limits):
// "-join DIR/cgroup.procs" for each; "-devpts 3" says where it finds the
// session's terminal file system.
func (sb *Sandbox) wrap(dirs []string, argv []string) []string {
	out := append(append([]string(nil), sb.Launcher...), LauncherArgs(sb)...)
	out = append(out, "-devpts", strconv.Itoa(devptsFD))
	for _, d := range dirs {
		out = append(out, "-join", d+"/cgroup.procs")
	}
	out = append(out, "--")
	return append(out, argv...)
}
