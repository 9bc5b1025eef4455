package remote

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// AgentCommand is the argument a host's backend gives the agent binary on
// the far side (`FILE agent`): `ptyseam agent` and the slim
// `ptyseam-agent` both take it.
const AgentCommand = "agent"

// RunAgent is the main of an agent process: it parses the agent's flags
// (-max-sessions, -v) from args, makes the process the subreaper of the
// sessions it starts (Linux), and serves the protocol on stdin and stdout
// until the stream or ctx ends; then it closes every session it started.
// Nothing but the protocol goes to stdout; logs go to stderr. It returns
// the process's exit code: 0, 1 on an error, 2 on bad flags, 3 when some
// session could not be closed. Call it once, from main.
func RunAgent(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("ptyseam agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	maxSessions := fs.Int("max-sessions", DefaultAgentMaxSessions, "live sessions this agent serves at most")
	verbose := fs.Bool("v", false, "log debug messages to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := localpty.BecomeSubreaper(ctx, log); err != nil {
		fmt.Fprintf(stderr, "ptyseam agent: %v\n", err)
	}
	stream, err := stdioStream()
	if err != nil {
		fmt.Fprintf(stderr, "ptyseam agent: %v\n", err)
		return 1
	}
	err = Serve(ctx, stream, AgentOptions{MaxSessions: *maxSessions, Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "ptyseam agent: %v\n", err)
		var ce *core.CleanupError
		if errors.As(err, &ce) {
			return 3
		}
		return 1
	}
	return 0
}

// stdio is stdin and stdout as one stream.
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
