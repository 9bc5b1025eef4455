//go:build unix

package localpty

import (
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// signalNumbers maps the signals a caller may send to this OS's numbers.
var signalNumbers = map[core.Signal]syscall.Signal{
	core.SIGINT:  unix.SIGINT,
	core.SIGTERM: unix.SIGTERM,
	core.SIGKILL: unix.SIGKILL,
	core.SIGTSTP: unix.SIGTSTP,
	core.SIGHUP:  unix.SIGHUP,
	core.SIGQUIT: unix.SIGQUIT,
	core.SIGCONT: unix.SIGCONT,
}

// signalNames names the signals that can end a process, for exit statuses.
// Only signals that exist on every supported OS are listed; numbers differ
// between Linux and darwin, the constants take care of that.
var signalNames = map[syscall.Signal]string{
	unix.SIGHUP:    "SIGHUP",
	unix.SIGINT:    "SIGINT",
	unix.SIGQUIT:   "SIGQUIT",
	unix.SIGILL:    "SIGILL",
	unix.SIGTRAP:   "SIGTRAP",
	unix.SIGABRT:   "SIGABRT",
	unix.SIGBUS:    "SIGBUS",
	unix.SIGFPE:    "SIGFPE",
	unix.SIGKILL:   "SIGKILL",
	unix.SIGUSR1:   "SIGUSR1",
	unix.SIGSEGV:   "SIGSEGV",
	unix.SIGUSR2:   "SIGUSR2",
	unix.SIGPIPE:   "SIGPIPE",
	unix.SIGALRM:   "SIGALRM",
	unix.SIGTERM:   "SIGTERM",
	unix.SIGCHLD:   "SIGCHLD",
	unix.SIGCONT:   "SIGCONT",
	unix.SIGSTOP:   "SIGSTOP",
	unix.SIGTSTP:   "SIGTSTP",
	unix.SIGTTIN:   "SIGTTIN",
	unix.SIGTTOU:   "SIGTTOU",
	unix.SIGURG:    "SIGURG",
	unix.SIGXCPU:   "SIGXCPU",
	unix.SIGXFSZ:   "SIGXFSZ",
	unix.SIGVTALRM: "SIGVTALRM",
	unix.SIGPROF:   "SIGPROF",
	unix.SIGWINCH:  "SIGWINCH",
	unix.SIGIO:     "SIGIO",
	unix.SIGSYS:    "SIGSYS",
}

// signalName returns "SIGKILL" and the like, or "SIG<n>" for a signal not
// in the table (a real-time signal).
func signalName(sig syscall.Signal) string {
	if n, ok := signalNames[sig]; ok {
		return n
	}
	return "SIG" + strconv.Itoa(int(sig))
}
