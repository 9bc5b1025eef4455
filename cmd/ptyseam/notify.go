package main

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
)

// jobNoticeLogger names the log messages that carry job exit notices.
const jobNoticeLogger = "ptyseam.jobs"

// notifyJob sends a job's exit notice (bg_launch's notifyOnExit) to the
// MCP session that owns the job, as a logging notification
// (notifications/message, level "notice"): the one kind of unsolicited
// message every MCP client can receive. The SDK sends it once the client
// has set a logging level (logging/setLevel), as the specification asks.
func (ts *toolServer) notifyJob(n jobs.Notification) {
	ss := ts.sessionOf(n.Owner)
	if ss == nil {
		return // the client is gone
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	data := map[string]any{
		"message":  n.Message,
		"jobId":    n.Job.ID,
		"status":   string(n.Job.State),
		"exitCode": n.Job.ExitCode,
		"signal":   nil,
	}
	if n.Job.Signal != "" {
		data["signal"] = n.Job.Signal
	}
	if err := ss.Log(ctx, &mcp.LoggingMessageParams{Level: "notice", Logger: jobNoticeLogger, Data: data}); err != nil {
		ts.log.Warn("ptyseam: a job's exit notice could not be sent", "job", n.Job.ID, "error", err)
	}
}

// sessionOf returns the MCP session whose owner is o, or nil.
func (ts *toolServer) sessionOf(o *core.Owner) *mcp.ServerSession {
	if o == nil {
		return nil
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if l := ts.leaseOf[o]; l != nil {
		return l.ss // the connection that resumed it (nil while it waits)
	}
	for ss, owner := range ts.owners {
		if owner == o {
			return ss
		}
	}
	return nil
}
