package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Command is the subcommand under which a program serves the launcher.
const Command = "sandbox-exec"

// Exec parses args (localpty.LauncherArgs, the launcher's own flags, then
// "--" and the program's argv), builds the session's /dev, /dev/pts, /proc
// and /tmp in the mount namespace it was started in (see isolate), restricts
// this process with Landlock to the policy, forbids it UNIX sockets that
// could reach the host's (see forbidUnixSockets), and executes the program
// in its place (argv[0] looked up in $PATH). It returns only on failure,
// and then the program did not run: a kernel without Landlock, seccomp or
// the mounts, a malformed policy, a restriction that failed, or an exec
// that failed.
func Exec(args []string) error {
	p, err := parseArgs(args)
	if err != nil {
		return err
	}
	if p.Devpts == 0 {
		return errors.New("no terminal file system of the session's own (-devpts FD): refusing to run with the host's terminals in reach")
	}
	for _, procs := range p.Join {
		// Before Landlock, which would forbid writing to the cgroup file
		// system; before the program, so that all it starts is counted.
		if err := os.WriteFile(procs, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			return fmt.Errorf("joining the session's cgroup: %w", err)
		}
	}
	if err := isolate(p); err != nil {
		return err
	}
	if p.Loopback {
		if err := loopbackUp(); err != nil {
			return err
		}
	}
	if p.TmpBytes > 0 {
		p.Writable = append(p.Writable, "/tmp") // the session's own tmpfs
		if err := privateHome(&p); err != nil {
			return err
		}
	}
	if err := Restrict(p); err != nil {
		return err
	}
	path, err := exec.LookPath(p.Argv[0])
	if err != nil {
		return err
	}
	if err := forbidUnixSockets(); err != nil {
		return err
	}
	return syscall.Exec(path, p.Argv, os.Environ())
}

// Restrict confines the calling process (every thread) and all it later
// starts: reading and executing under p.ReadOnly, and also writing under
// p.Writable; nothing else in the file system. Sending signals to, and
// connecting to abstract UNIX sockets of, processes outside the sandbox
// are refused where the kernel can (Landlock ABI 6+); Exec refuses every
// UNIX socket that could reach the host's on top of that. A path that does
// not exist grants nothing. A kernel without Landlock is an error, never a
// silent no-op.
func Restrict(p Policy) error {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return fmt.Errorf("this kernel has no Landlock (ABI %d, %v): refusing to run unconfined", abi, err)
	}
	var rules []landlock.Rule
	for _, path := range p.ReadOnly {
		if isDir(path) {
			rules = append(rules, landlock.RODirs(path).IgnoreIfMissing())
		} else {
			rules = append(rules, landlock.ROFiles(path).IgnoreIfMissing())
		}
	}
	for _, path := range p.Writable {
		if isDir(path) {
			rules = append(rules, landlock.RWDirs(path).WithIoctlDev().IgnoreIfMissing())
		} else {
			rules = append(rules, landlock.RWFiles(path).WithIoctlDev().IgnoreIfMissing())
		}
	}
	cfg := landlock.V7.BestEffort()
	if err := cfg.RestrictPaths(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if abi >= 6 {
		if err := cfg.RestrictScoped(); err != nil {
			return fmt.Errorf("landlock scopes: %w", err)
		}
	}
	return nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Policy is what the launcher enforces.
type Policy struct {
	ReadOnly []string // readable and executable
	Writable []string // also writable
	Join     []string // cgroup.procs files to move into first (cgroup v1 limits)
	Devpts   int      // descriptor of the session's detached devpts mount (0: none)
	TmpBytes int64    // size of the session's own /tmp (0: the host's, as ReadOnly and Writable say)
	Loopback bool     // bring up the loopback of the session's own network namespace
	Argv     []string // the program
}

// parseArgs reads "-ro PATH", "-rw PATH", "-join PATH", "-devpts FD" and
// "-tmp BYTES" pairs and the "-loopback" flag up to "--", then the
// program's argv (which must not be empty).
func parseArgs(args []string) (Policy, error) {
	var p Policy
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--":
			p.Argv = args[i+1:]
			if len(p.Argv) == 0 || p.Argv[0] == "" {
				return Policy{}, errors.New("no program after --")
			}
			return p, nil
		case "-devpts":
			if i+1 >= len(args) {
				return Policy{}, errors.New("-devpts needs a descriptor")
			}
			i++
			fd, err := strconv.Atoi(args[i])
			if err != nil || fd < 3 {
				return Policy{}, fmt.Errorf("-devpts %q: want a descriptor number above 2", args[i])
			}
			p.Devpts = fd
		case "-loopback":
			p.Loopback = true
		case "-tmp":
			if i+1 >= len(args) {
				return Policy{}, errors.New("-tmp needs a size in bytes")
			}
			i++
			n, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil || n <= 0 {
				return Policy{}, fmt.Errorf("-tmp %q: want a size in bytes above 0", args[i])
			}
			p.TmpBytes = n
		case "-ro", "-rw", "-join":
			if i+1 >= len(args) || args[i+1] == "" || args[i+1][0] != '/' {
				return Policy{}, fmt.Errorf("%s needs an absolute path", a)
			}
			i++
			switch a {
			case "-ro":
				p.ReadOnly = append(p.ReadOnly, args[i])
			case "-rw":
				p.Writable = append(p.Writable, args[i])
			default:
				p.Join = append(p.Join, args[i])
			}
		default:
			return Policy{}, fmt.Errorf("unexpected argument %q (want -ro PATH, -rw PATH, -join PATH, -devpts FD, -tmp BYTES, -loopback, then -- and the program)", a)
		}
	}
	return Policy{}, errors.New("no -- and program")
}
