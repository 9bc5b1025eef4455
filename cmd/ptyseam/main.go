// Command ptyseam serves ptyseam's terminal tools over the Model Context
// Protocol (`ptyseam mcp`) and demonstrates the library end to end
// (`ptyseam demo`).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/sandbox"
)

const usage = `ptyseam: drive interactive programs on pseudo-terminals on someone's behalf.

Usage:
  ptyseam mcp [flags]    serve the pty_* and bg_* tools over MCP (stdio, or --http ADDR)
  ptyseam demo           run the end-to-end demo
  ptyseam play FILE      print a session recording (--record-dir) at its pace (--speed N for faster)
  ptyseam agent          serve sessions over stdin/stdout to a remote host (docs/remote.md)
  ptyseam help           show this help ("ptyseam mcp --help" lists the server's flags)
`

func main() {
	// SIGHUP (the terminal closed, the ssh connection dropped) ends the
	// server like SIGINT and SIGTERM: every session is closed first.
	ctx, stop := signal.NotifyContext(context.Background(), shutdownSignals...)
	defer stop()
	survivePipeErrors()
	// The server's processes that leave their session are re-parented
	// here, not to init, so that closing a session finds them even without
	// cgroup v2. Only the server (the agent does the same in
	// remote.RunAgent): it starts every child through localpty.
	if len(os.Args) > 1 && os.Args[1] == "mcp" {
		if err := localpty.BecomeSubreaper(ctx, nil); err != nil {
			fmt.Fprintf(os.Stderr, "ptyseam: %v\n", err)
		}
	}
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes one subcommand and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "mcp":
		return runMCP(ctx, args[1:], stdin, stdout, stderr)
	case "demo":
		return runDemo(ctx, args[1:], stdout, stderr)
	case "play":
		return runPlay(ctx, args[1:], stdout, stderr)
	case agentCommand: // run on the far side by a host's remote backend
		return remote.RunAgent(ctx, args[1:], stderr)
	case sandbox.Command: // internal: the launcher of sandboxed sessions
		return runLauncher(args[1:], stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "ptyseam: unknown command %q\n\n%s", args[0], usage)
	return 2
}
