package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// agentCommand is the subcommand a host runs on the far side (over ssh,
// in a container) to serve sessions over its standard input and output.
const agentCommand = "agent"

// runAgent serves the remote protocol on stdin/stdout until the stream or
// ctx ends, then closes every session it started (docs/remote.md).
// Nothing but the protocol goes to stdout; logs go to stderr.
func runAgent(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("ptyseam agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	maxSessions := fs.Int("max-sessions", remote.DefaultAgentMaxSessions, "live sessions this agent serves at most")
	verbose := fs.Bool("v", false, "log debug messages to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	stream, err := stdioStream()
	if err != nil {
		fmt.Fprintf(stderr, "ptyseam agent: %v\n", err)
		return 1
	}
	err = remote.Serve(ctx, stream, remote.AgentOptions{MaxSessions: *maxSessions, Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "ptyseam agent: %v\n", err)
		var ce *core.CleanupError
		if errors.As(err, &ce) {
			return 3 // some session could not be closed
		}
		return 1
	}
	return 0
}

type stdio struct {
	in, out *os.File
}

func (s *stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s *stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s *stdio) Close() error {
	err := s.in.Close()
	if e := s.out.Close(); err == nil {
		err = e
	}
	return err
}
