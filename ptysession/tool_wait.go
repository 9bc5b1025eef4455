package ptysession

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// ToolWait is the name of the wait tool.
const ToolWait = "pty_wait"

// WaitTool returns pty_wait over s: a bounded wait for the first of
// several conditions across the caller's sessions and the ids sources
// know (jobs). It is not part of PtyTools; a server adds it.
func WaitTool(s *Sessions, sources ...WaitSource) tools.Tool {
	max := s.opts.MaxTimeout
	return tools.Tool{
		Definition: tools.Definition{
			Name:  ToolWait,
			Title: "Wait for output, a port, an exit or a screen change",
			Description: "Wait, without polling, until the first of several conditions holds, across your sessions and " +
				"background jobs: a new line of output matches pattern (kind output), a TCP port on this host accepts " +
				"connections (port), a program exits (exit), a program waits for input: a question, a password " +
				"prompt, the shell's prompt again (input; terminals and PTY jobs), or a session's screen changes or " +
				"shows a row matching pattern (screen). " +
				"Use it instead of repeated pty_tail calls or sleep: for a dev server's \"ready\" line, a port to open, a " +
				"build to finish. Returns which condition fired (condition, its index) with the matching line (for input: " +
				"the question) and its line number, or fired false when timeoutMs passed (default 30000, at most " +
				fmt.Sprint(max.Milliseconds()) + "); the programs keep running either way. Only output printed after the " +
				"wait starts counts, unless a condition sets fromLine.",
			InputSchema:  waitInput(max),
			OutputSchema: waitOutput(),
		},
		Handler: tools.Typed(func(ctx context.Context, owner *core.Owner, a waitArgs, progress func(tools.ProgressUpdate)) (tools.Result, error) {
			a.Conditions = withTarget(a.Conditions, a.ID)
			r, err := s.Wait(ctx, owner, WaitRequest{
				Conditions: a.Conditions,
				Timeout:    time.Duration(a.TimeoutMs) * time.Millisecond,
				Progress: func(p WaitProgress) {
					msg := fmt.Sprintf("waiting %.0f s; %s", p.Elapsed.Seconds(), plural(int(p.NewLines), "new line"))
					if p.LastLine != "" {
						msg += "; last: " + tools.Bound(p.LastLine, 200)
					}
					progress(tools.ProgressUpdate{Message: msg})
				},
			}, sources...)
			return ptyResult(r, err, func(r WaitResult) string { return renderWait(r, a.Conditions) })
		}),
	}
}

// withTarget gives id to the conditions that take a target and name none:
// pty_wait takes id as the other pty tools do (a model passed it so and
// was refused), and a condition's own target wins.
func withTarget(conds []WaitCondition, id string) []WaitCondition {
	if id == "" {
		return conds
	}
	out := make([]WaitCondition, len(conds))
	for i, c := range conds {
		if c.Target == "" && c.Kind != WaitPort {
			c.Target = id
		}
		out[i] = c
	}
	return out
}

func renderWait(r WaitResult, conds []WaitCondition) string {
	if !r.Fired {
		return fmt.Sprintf("[timeout after %d ms: no condition held; the programs keep running]", r.WaitedMs)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[condition %d fired after %d ms: %s", r.Condition, r.WaitedMs, conds[r.Condition])
	if r.Kind == WaitExit && r.Status != nil {
		fmt.Fprintf(&b, "; %s", *r.Status)
	}
	b.WriteString("]")
	if r.LineNumber != nil {
		fmt.Fprintf(&b, "\nline %d: %s", *r.LineNumber, r.Line)
	}
	if r.Row != nil {
		fmt.Fprintf(&b, "\nrow %d: %s", *r.Row, r.Line)
	}
	return b.String()
}
