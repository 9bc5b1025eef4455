// Command ptyseam-agent is the ptyseam agent alone: what a host's remote
// backend (ssh with ptyseamAgent, a container, a pod) runs on the far side
// to serve sessions over its standard input and output. `ptyseam agent`
// does the same; this binary leaves out the server (the MCP tools, the
// Docker and Kubernetes clients, the watch page), so it is a few
// megabytes instead of tens, and copying it to each container, pod or
// host is that much quicker. Point a targets file's agentBinary at it.
//
// Usage: ptyseam-agent [agent] [-max-sessions N] [-v]
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ptyseam/ptyseam/remote"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// A broken stdout (the host went away) makes a write fail with EPIPE,
	// which ends the stream, instead of killing the process.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	args := os.Args[1:]
	if len(args) > 0 && args[0] == remote.AgentCommand {
		args = args[1:]
	}
	code := remote.RunAgent(ctx, args, os.Stderr)
	stop()
	os.Exit(code)
}
