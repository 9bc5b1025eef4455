package jobs

import (
	"fmt"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// Notification is the exit notice of a job launched with NotifyOnExit: the
// seed injects it into the agent's conversation so that no polling is
// needed.
type Notification struct {
	// Job is the job's final Info.
	Job Info
	// Owner is the job's owner: the client to tell (nil if the job's
	// record was already dropped).
	Owner *core.Owner
	// Message is a short human text: the job, how it ended, and how to read
	// its output.
	Message string
}

// notifyExit turns exit events of notifying jobs into notifications. It
// runs on the hub's goroutine for it; a panic in Config.Notify is
// recovered there.
func (m *Manager) notifyExit(ev Event) {
	if !ev.Info.NotifyOnExit {
		return
	}
	var owner *core.Owner
	m.mu.Lock()
	if j := m.jobs[core.SessionID(ev.ID)]; j != nil {
		owner = j.owner
	}
	m.mu.Unlock()
	m.cfg.Notify(Notification{Job: ev.Info, Owner: owner, Message: NoticeText(ev.Info)})
}

// NoticeText renders the exit notice of a job.
func NoticeText(in Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Background job %s (%q, group %q) %s", in.ID, in.Title, in.Group, Outcome(in))
	fmt.Fprintf(&b, " after %s. It printed %d lines", in.EndedAt.Sub(in.StartedAt).Round(1e6), in.Output.Lines)
	if in.Output.Released {
		b.WriteString("; its output is no longer available.")
	} else {
		fmt.Fprintf(&b, "; read them with bg_read(id: %q).", in.ID)
	}
	return b.String()
}

// Outcome describes how a job ended ("finished (exit 0)", "failed (exit
// 2)", "failed (signal SIGKILL)", "stopped (timeout)"), or its state while
// it runs.
func Outcome(in Info) string {
	how := ""
	switch {
	case in.Signal != "":
		how = "signal " + in.Signal
	case in.ExitCode != nil:
		how = fmt.Sprintf("exit %d", *in.ExitCode)
	}
	switch in.State {
	case StateStopped:
		r := string(in.StopReason)
		if in.StopReason == ReasonForced && in.StopCause != "" && in.StopCause != ReasonForced {
			r += " after " + string(in.StopCause)
		}
		if how != "" {
			r += ", " + how
		}
		return "stopped (" + r + ")"
	case StateFinished, StateFailed:
		return string(in.State) + " (" + how + ")"
	}
	return string(in.State)
}
