package pipebackend

import (
	"syscall"

	"github.com/ptyseam/ptyseam/core"
)

// signalsByName are the core signals Windows can deliver (see
// procGroup.signal for how each is delivered).
var signalsByName = map[core.Signal]syscall.Signal{
	core.SIGINT:  syscall.SIGINT,
	core.SIGTERM: syscall.SIGTERM,
	core.SIGKILL: syscall.SIGKILL,
	core.SIGHUP:  syscall.SIGHUP,
	core.SIGQUIT: syscall.SIGQUIT,
}

// missingSignals are the core signals Windows does not have: a process
// there cannot be stopped and continued.
var missingSignals = map[core.Signal]bool{core.SIGTSTP: true, core.SIGCONT: true}

var namesBySignal = map[syscall.Signal]string{
	syscall.SIGHUP:  "SIGHUP",
	syscall.SIGINT:  "SIGINT",
	syscall.SIGKILL: "SIGKILL",
	syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGTERM: "SIGTERM",
}
