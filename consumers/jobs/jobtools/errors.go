package jobtools

import (
	"errors"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// hints name the bg_* tool to use next, per error code. A code without an
// entry gets no hint. A sentence that names a tool a server does not serve
// is left out there (see tools.OnlyServed): each stands alone.
var hints = map[core.Code]string{
	core.CodeNoSession:        "No job has this id (it may have been dropped). bg_list shows your jobs.",
	core.CodeForeignSession:   "This id is not one of your jobs. bg_list shows your jobs.",
	core.CodeSessionExited:    "The job has ended. Read its output with bg_read, or start it again with bg_launch.",
	core.CodeSessionClosing:   "The job is being closed. bg_list shows its final state.",
	core.CodeInvalidArgument:  "Fix the named argument and call the tool again.",
	core.CodeNoBackend:        `Launch with backend "pipe" (or "auto").`,
	core.CodeSpawnFailed:      "Check the command name (it must be on PATH or a path) and cwd, then call bg_launch again.",
	core.CodeServiceDisposing: "The job manager is shutting down; no more jobs can be launched.",
	core.CodeCleanupFailed:    "Some processes did not go away; call bg_stop again or report it.",
	core.CodeCancelled:        "The call was cancelled; call the tool again if still needed.",
	jobs.CodeJobRunning:       "Stop it first with bg_stop (drop: true stops and drops in one call).",
	core.CodeWrongKind:        "That id is a terminal session's (pty_...): use pty_send, pty_tail, pty_signal or pty_close for it; bg_* tools take job ids (job_...).",
	core.CodeTooManySessions:  "Call bg_stop with drop true on jobs you no longer need (running or ended), then launch again. bg_drop deletes every ended job's record. bg_list shows your jobs. Terminal sessions do not count.",
	jobs.CodeOutputReleased:   "The job's output is gone. bg_list still shows how it ended.",
}

// toolError converts a non-nil err into a *tools.ToolError with the code it
// carries (INTERNAL for none) and the hint of hints for that code. Unlike
// the dispatcher's fallback, a code without a bg_* hint gets none rather
// than a generic one.
func toolError(err error) *tools.ToolError {
	var te *tools.ToolError
	if errors.As(err, &te) {
		return te
	}
	te = tools.AsToolError(err, "")
	te.Hint = hints[core.Code(te.Code)]
	return te
}

// requireID checks a job id argument.
func requireID(id string) error {
	if id == "" {
		return tools.InvalidArgument("id", "required: the job id bg_launch returned")
	}
	return nil
}
