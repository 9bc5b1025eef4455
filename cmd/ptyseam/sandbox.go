package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/sandbox"
)

// sandboxFlags are the deployer's sandbox settings.
type sandboxFlags struct {
	On       bool
	ReadOnly string
	Writable string
	Network  bool
	MemoryMB int64
	Pids     int
	CPUs     float64
	TmpMB    int64
}

func (s *sandboxFlags) flags(fs *flag.FlagSet) {
	fs.BoolVar(&s.On, "sandbox", false, "confine every terminal (Linux, a root server: Landlock, no UNIX sockets, its own /dev, terminals and /proc, a network namespace, cgroup v2 limits); a session the kernel cannot confine is refused.\nbg_* jobs run confined the same way, each on a terminal of its own (pipe jobs are refused)")
	fs.StringVar(&s.ReadOnly, "sandbox-ro", "/", "comma-separated absolute `PATHS` sandboxed programs may read and execute")
	fs.StringVar(&s.Writable, "sandbox-rw", "", "comma-separated absolute `PATHS` sandboxed programs may also write (the terminal and /dev/null etc. always)")
	fs.BoolVar(&s.Network, "sandbox-network", false, "keep the host's network inside the sandbox (default: a loopback of the session's own, nothing else)")
	fs.Int64Var(&s.MemoryMB, "sandbox-memory-mb", 512, "memory limit of each sandboxed session in MiB (cgroup memory.max; 0: none)")
	fs.IntVar(&s.Pids, "sandbox-pids", 256, "process limit of each sandboxed session (cgroup pids.max; 0: none)")
	fs.Float64Var(&s.CPUs, "sandbox-cpus", 0, "CPU limit of each sandboxed session in CPUs, e.g. 0.5 (cgroup cpu.max; 0: none)")
	fs.Int64Var(&s.TmpMB, "sandbox-tmp-mb", 64, "size in MiB of the /tmp each sandboxed session has to itself (a tmpfs counted in its memory limit; no other\nsession, job or the host sees it), and of the writable layer over its home directory; 0, or /tmp in --sandbox-rw or --sandbox-ro,\nshares the host's /tmp as those say")
}

// maxSandboxMB bounds the sizes in MiB, whose bytes must fit an int64.
const maxSandboxMB = 1 << 30

// policy returns the localpty sandbox, or nil when --sandbox is off.
func (s sandboxFlags) policy() (*localpty.Sandbox, error) {
	if !s.On {
		return nil, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--sandbox: cannot find this program to use as the launcher: %w", err)
	}
	sb := &localpty.Sandbox{
		Launcher:  []string{self, sandbox.Command},
		ReadOnly:  splitPaths(s.ReadOnly),
		Writable:  splitPaths(s.Writable),
		Network:   s.Network,
		MemoryMax: s.MemoryMB << 20,
		PidsMax:   s.Pids,
		CPUMax:    s.CPUs,
		TmpBytes:  s.TmpMB << 20,
	}
	for _, p := range append(append([]string(nil), sb.ReadOnly...), sb.Writable...) {
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("--sandbox-ro/--sandbox-rw: %q is not an absolute path", p)
		}
	}
	if s.MemoryMB < 0 || s.Pids < 0 || s.CPUs < 0 || s.TmpMB < 0 {
		return nil, errors.New("--sandbox limits must not be negative")
	}
	if s.MemoryMB > maxSandboxMB || s.TmpMB > maxSandboxMB {
		return nil, fmt.Errorf("--sandbox-memory-mb and --sandbox-tmp-mb must be at most %d (1 PiB)", maxSandboxMB)
	}
	return sb, nil
}

func splitPaths(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// runLauncher is `ptyseam sandbox-exec`: the step between the server and
// a sandboxed program (see package sandbox). It returns only on failure.
func runLauncher(args []string, stderr io.Writer) int {
	err := sandbox.Exec(args)
	fmt.Fprintf(stderr, "ptyseam sandbox: %v; the program did not run\n", err)
	return 126
}
