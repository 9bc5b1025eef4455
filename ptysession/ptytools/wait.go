package ptytools

import (
	"context"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// ToolWait is the name of the wait tool.
const ToolWait = "pty_wait"

// WaitTool returns pty_wait over s: a bounded wait for the first of
// several conditions across the caller's sessions and the ids sources
// know (jobs). It is not part of Tools; a server adds it.
func WaitTool(s *ptysession.Sessions, sources ...ptysession.WaitSource) tools.Tool {
	max := s.Options().MaxTimeout
	return tools.Tool{
		Definition: tools.Definition{
			Name:  ToolWait,
			Title: "Wait for output, a port, an exit or a screen change",
			Description: "Wait, without polling, until the first of several conditions holds, across your sessions and " +
				"background jobs: a line of output matches pattern (kind output), a TCP port on this host accepts " +
				"connections (port), a program exits (exit), a program waits for input: a question, a password " +
				"prompt, the shell's prompt again (input; terminals and PTY jobs), or a session's screen changes or " +
				"shows a row matching pattern (screen). " +
				"Use it instead of repeated pty_tail calls or sleep: for a dev server's \"ready\" line, a port to open, a " +
				"build to finish. Returns which condition fired (condition, its index), the matching line's number and the " +
				"session's output you have not seen (as pty_tail), or fired false when timeoutMs passed (default 30000, at most " +
				fmt.Sprint(max.Milliseconds()) + "); the programs keep running either way. Output you have not seen counts " +
				"(a job's: only new output), unless a condition sets fromLine.",
			InputSchema:  waitInput(max),
			OutputSchema: waitOutput(),
		},
		Handler: tools.Typed(func(ctx context.Context, owner *core.Owner, a waitArgs, progress func(tools.ProgressUpdate)) (tools.Result, error) {
			a.Conditions = withTarget(a.Conditions, a.ID)
			r, err := s.Wait(ctx, owner, ptysession.WaitRequest{
				Conditions: a.Conditions,
				Target:     a.ID,
				Timeout:    time.Duration(a.TimeoutMs) * time.Millisecond,
				Progress: func(p ptysession.WaitProgress) {
					msg := fmt.Sprintf("waiting %.0f s; %d new lines", p.Elapsed.Seconds(), p.NewLines)
					if p.NewLines == 1 {
						msg = fmt.Sprintf("waiting %.0f s; 1 new line", p.Elapsed.Seconds())
					}
					if p.LastLine != "" {
						msg += "; last: " + tools.Bound(p.LastLine, 200)
					}
					progress(tools.ProgressUpdate{Message: msg})
				},
			}, sources...)
			return ptyResult(r, err, func(r ptysession.WaitResult) string { return ptysession.RenderWait(r, a.Conditions) })
		}),
	}
}

// withTarget gives id to the conditions that take a target and name none:
// pty_wait takes id as the other pty tools do (a model passed it so and
// was refused), and a condition's own target wins.
func withTarget(conds []ptysession.WaitCondition, id string) []ptysession.WaitCondition {
	if id == "" {
		return conds
	}
	out := make([]ptysession.WaitCondition, len(conds))
	for i, c := range conds {
		if c.Target == "" && c.Kind != ptysession.WaitPort {
			c.Target = id
		}
		out[i] = c
	}
	return out
}
