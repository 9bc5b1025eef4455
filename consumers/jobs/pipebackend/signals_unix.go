//go:build unix

package pipebackend

import (
	"syscall"

	"github.com/ptyseam/ptyseam/core"
)

var signalsByName = map[core.Signal]syscall.Signal{
	core.SIGINT:  syscall.SIGINT,
	core.SIGTERM: syscall.SIGTERM,
	core.SIGKILL: syscall.SIGKILL,
	core.SIGTSTP: syscall.SIGTSTP,
	core.SIGHUP:  syscall.SIGHUP,
	core.SIGQUIT: syscall.SIGQUIT,
	core.SIGCONT: syscall.SIGCONT,
}

// missingSignals are the core signals this platform does not have.
var missingSignals = map[core.Signal]bool{}

var namesBySignal = map[syscall.Signal]string{
	syscall.SIGABRT: "SIGABRT",
	syscall.SIGALRM: "SIGALRM",
	syscall.SIGBUS:  "SIGBUS",
	syscall.SIGFPE:  "SIGFPE",
	syscall.SIGHUP:  "SIGHUP",
	syscall.SIGILL:  "SIGILL",
	syscall.SIGINT:  "SIGINT",
	syscall.SIGKILL: "SIGKILL",
	syscall.SIGPIPE: "SIGPIPE",
	syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGSEGV: "SIGSEGV",
	syscall.SIGTERM: "SIGTERM",
	syscall.SIGUSR1: "SIGUSR1",
	syscall.SIGUSR2: "SIGUSR2",
	syscall.SIGTRAP: "SIGTRAP",
	syscall.SIGSYS:  "SIGSYS",
	syscall.SIGXCPU: "SIGXCPU",
	syscall.SIGXFSZ: "SIGXFSZ",
}
