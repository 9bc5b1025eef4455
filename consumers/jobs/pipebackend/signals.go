package pipebackend

import (
	"strconv"
	"syscall"

	"github.com/ptyseam/ptyseam/core"
)

func sysSignal(s core.Signal) (syscall.Signal, bool) {
	sig, ok := signalsByName[s]
	return sig, ok
}

// signalName names sig the way core.Status does ("SIGKILL"), or "SIG"
// and its number for one without a portable name.
func signalName(sig syscall.Signal) string {
	if n, ok := namesBySignal[sig]; ok {
		return n
	}
	return "SIG" + strconv.Itoa(int(sig))
}
