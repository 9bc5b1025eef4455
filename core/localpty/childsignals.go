package localpty

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// childSignals are the signals a Go program keeps ignored when it was
// started with them ignored, and whose ignoring its children would then
// inherit through exec: the Go runtime installs its own handler, and so
// resets the child to the default action, for every other signal.
var childSignals = []os.Signal{syscall.SIGHUP, syscall.SIGINT}

var (
	childSignalsMu   sync.Mutex
	childSignalsSink = make(chan os.Signal, 1) // never read: see below
)

// DefaultChildSignals makes the programs this process starts from now on
// begin with the default action for SIGHUP and SIGINT, even when this
// process was started with them ignored: under nohup, or as `prog &` in a
// script without job control, which ignores SIGINT. Without it Ctrl-C, a
// cancelled send and the terminal's hangup would not reach the programs
// of a session, as they would not reach anything started from that
// process.
//
// It subscribes a channel nobody reads to the signals this process
// ignores (os/signal never blocks on a full channel), so the process goes
// on ignoring them in effect while the runtime's handler is installed,
// and a handled signal is reset to its default action in a child. The
// local backends call it before every start; a program that starts
// terminal children by other means can call it too. Signals this process
// does not ignore are left alone.
func DefaultChildSignals() {
	childSignalsMu.Lock()
	defer childSignalsMu.Unlock()
	var ignored []os.Signal
	for _, sig := range childSignals {
		if signal.Ignored(sig) {
			ignored = append(ignored, sig)
		}
	}
	if len(ignored) > 0 {
		signal.Notify(childSignalsSink, ignored...)
	}
}
