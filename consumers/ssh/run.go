package ssh

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// DefaultRunMaxOutput is RunOptions.MaxOutput when zero.
const DefaultRunMaxOutput = 4 << 20

// RunOptions tune Run.
type RunOptions struct {
	// MaxOutput bounds the output kept: the newest part is kept and
	// RunResult.Truncated set (default DefaultRunMaxOutput).
	MaxOutput int
	// PTY runs the command on a pseudo-terminal (for programs that
	// insist on one): its output then has CRLF line ends and echoes
	// nothing. Without it the output is the exact bytes the command wrote.
	PTY bool
}

// RunResult is a finished command.
type RunResult struct {
	// Output is what the command wrote, stdout and stderr merged in the
	// order they arrived. It never holds the banner.
	Output []byte
	// Truncated reports that the start of Output was dropped.
	Truncated bool
	// Status is the exit: ExitedWithCode, ExitedWithSignal, or a Reason
	// ("connection lost") when the server reported neither.
	Status core.Status
	// ExitCode is Status.ExitCode: the command's exit status, -1 when it
	// was killed by a signal or the code is unknown.
	ExitCode int
	// Banner is the text the server sent before authentication on the
	// connection the command ran on ("" when none), kept apart from Output.
	Banner string
}

// Run runs one command line on the target and returns its output and exit
// status: the one call of x/crypto/ssh's Session.CombinedOutput or
// paramiko's exec_command. command is one string, as a terminal user types
// it; the remote login shell interprets it (pipes, redirections, $VARS).
// The connection is shared with the target's sessions like Spawn's, and a
// further one is opened when the server's session limit is reached.
//
// Run returns when the command exited and its output ended, or when ctx
// ends: then the command is hung up and ended as Close ends a session, and
// the error matches ctx's. A lost connection is an error matching
// ErrConnectionLost, with what was collected so far in the result.
func (b *Backend) Run(ctx context.Context, t *Target, command string, opts RunOptions) (RunResult, error) {
	if err := t.validate(); err != nil {
		return RunResult{}, &core.Error{Code: core.CodeInvalidArgument, Op: "run", Msg: err.Error()}
	}
	switch {
	case strings.TrimSpace(command) == "":
		return RunResult{}, &core.Error{Code: core.CodeInvalidArgument, Op: "run", Msg: "the command is empty: to get a shell, Spawn a session"}
	case strings.IndexByte(command, 0) >= 0:
		return RunResult{}, &core.Error{Code: core.CodeInvalidArgument, Op: "run", Msg: "the command contains a NUL byte, which no shell can read"}
	}
	max := opts.MaxOutput
	if max <= 0 {
		max = DefaultRunMaxOutput
	}
	tt := *t
	tt.NoPTY = !opts.PTY
	s, err := b.open(ctx, &tt, core.BackendRequest{Size: core.DefaultSize}, command)
	if err != nil {
		return RunResult{}, err
	}
	res := RunResult{Banner: s.c.banner}
	s.start()
	done := make(chan error, 1)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := s.Read(buf)
			res.Output = append(res.Output, buf[:n]...)
			if len(res.Output) > max {
				res.Output = append(res.Output[:0:0], res.Output[len(res.Output)-max:]...)
				res.Truncated = true
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				done <- err
				return
			}
		}
	}()
	var rerr error
	select {
	case rerr = <-done:
	case <-ctx.Done():
		rerr = ctx.Err()
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), tt.closeGrace()*2+5*time.Second)
	defer cancel()
	cerr := s.Close(cctx)
	if ctx.Err() != nil {
		<-done // Close ended the reads
	}
	res.Status = s.ExitStatus()
	res.ExitCode = res.Status.ExitCode
	if rerr == nil {
		rerr = s.ExitCause()
	}
	return res, errors.Join(rerr, cerr)
}
