package main

import (
	"os"
	"os/signal"
	"syscall"
)

// shutdownSignals end the server cleanly: every session is closed and no
// process it started survives.
var shutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// survivePipeErrors keeps a broken stdout or stderr (a host that stopped
// reading) from killing the process with SIGPIPE: Go's runtime dies of a
// write to a closed pipe on fd 1 or 2 unless SIGPIPE is notified. A write
// then fails with EPIPE instead; on stdout that ends the MCP connection,
// which shuts the server down cleanly. The handler is not SIG_IGN, so
// programs the server starts still get the default action.
func survivePipeErrors() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}
