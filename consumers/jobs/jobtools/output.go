package jobtools

import (
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
)

// JobOut is a job as the tools report it (the JSON names are part of the
// tools' contract).
type JobOut struct {
	ID           string             `json:"id"`
	PID          int                `json:"pid"`
	Title        string             `json:"title"`
	Group        string             `json:"group"`
	Command      string             `json:"command"`
	Args         []string           `json:"args"`
	Cwd          string             `json:"cwd,omitempty"`
	Backend      jobs.BackendChoice `json:"backend"`
	Status       jobs.State         `json:"status"`
	ExitCode     *int               `json:"exitCode"` // null until exited normally
	Signal       *string            `json:"signal"`   // null unless a signal ended it
	Reason       jobs.StopReason    `json:"reason,omitempty"`
	Cause        jobs.StopReason    `json:"cause,omitempty"`
	StartedAt    string             `json:"startedAt"`
	EndedAt      string             `json:"endedAt,omitempty"`
	RuntimeMs    int64              `json:"runtimeMs"`
	TimeoutMs    int64              `json:"timeoutMs,omitempty"`
	NotifyOnExit bool               `json:"notifyOnExit"`
	Ports        []int              `json:"ports,omitempty"`
	Warnings     []string           `json:"warnings"`
	Services     []string           `json:"services"`
	Output       OutputOut          `json:"output"`
}

// JobBrief is a job as bg_launch and bg_stop report it: what a model acts
// on next (the id, the state, the pid or how it ended), beside the text's
// one-line summary. bg_list returns the whole record (JobOut).
type JobBrief struct {
	ID       string          `json:"id"`
	PID      int             `json:"pid,omitempty"`
	Status   jobs.State      `json:"status"`
	ExitCode *int            `json:"exitCode,omitempty"`
	Signal   string          `json:"signal,omitempty"`
	Reason   jobs.StopReason `json:"reason,omitempty"`
	// NotifyOnExit acknowledges a launch that asked for an exit notice.
	NotifyOnExit bool     `json:"notifyOnExit,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`
	Services     []string `json:"services,omitempty"`
}

func jobBrief(in jobs.Info) JobBrief {
	b := JobBrief{ID: in.ID, Status: in.State, ExitCode: in.ExitCode, Signal: in.Signal, Reason: in.StopReason,
		NotifyOnExit: in.NotifyOnExit, Warnings: in.Warnings, Services: in.Services}
	if in.EndedAt.IsZero() {
		b.PID = in.PID // an ended job's pid names nothing
	}
	return b
}

// OutputOut summarises a job's output buffer.
type OutputOut struct {
	Lines    int64 `json:"lines"`
	First    int64 `json:"first"`
	Retained int64 `json:"retained"`
	Bytes    int64 `json:"bytes"`
	CutBytes int64 `json:"cutBytes"`
	Released bool  `json:"released"`
}

func jobOut(in jobs.Info, now time.Time) JobOut {
	o := JobOut{
		ID:           in.ID,
		PID:          in.PID,
		Title:        in.Title,
		Group:        in.Group,
		Command:      in.Command,
		Args:         in.Args,
		Cwd:          in.Cwd,
		Backend:      in.Backend,
		Status:       in.State,
		ExitCode:     in.ExitCode,
		Signal:       nullable(in.Signal),
		Reason:       in.StopReason,
		Cause:        in.StopCause,
		StartedAt:    in.StartedAt.UTC().Format(time.RFC3339Nano),
		TimeoutMs:    in.Timeout.Milliseconds(),
		NotifyOnExit: in.NotifyOnExit,
		Ports:        in.Ports,
		Warnings:     in.Warnings,
		Services:     in.Services,
		Output: OutputOut{
			Lines: in.Output.Lines, First: in.Output.First, Retained: in.Output.Retained,
			Bytes: in.Output.Bytes, CutBytes: in.Output.CutBytes, Released: in.Output.Released,
		},
	}
	end := now
	if !in.EndedAt.IsZero() {
		o.EndedAt = in.EndedAt.UTC().Format(time.RFC3339Nano)
		end = in.EndedAt
	}
	o.RuntimeMs = max(0, end.Sub(in.StartedAt).Milliseconds())
	if o.Args == nil {
		o.Args = []string{}
	}
	if o.Warnings == nil {
		o.Warnings = []string{}
	}
	if o.Services == nil {
		o.Services = []string{}
	}
	return o
}

// SendOut is bg_send's result.
type SendOut struct {
	ID     string     `json:"id"`
	Bytes  int        `json:"bytes"`
	Echo   string     `json:"echo"`
	Status jobs.State `json:"status"`
}

// LineOut is one output line.
type LineOut struct {
	N       int64  `json:"n"`
	Text    string `json:"text"`
	Partial bool   `json:"partial,omitempty"`
}

// ReadOut is bg_read's result. First, Dropped, Truncated and More are
// left out of the JSON while zero: nothing was dropped or cut, and the
// read reached the end; ExitCode and Signal until the job ended.
type ReadOut struct {
	ID        string     `json:"id"`
	Status    jobs.State `json:"status"`
	ExitCode  *int       `json:"exitCode,omitempty"`
	Signal    string     `json:"signal,omitempty"`
	Lines     []LineOut  `json:"lines"`
	Next      int64      `json:"next"`
	Total     int64      `json:"total"`
	First     int64      `json:"first,omitempty"`
	Dropped   int64      `json:"dropped,omitempty"`
	Truncated bool       `json:"truncated,omitempty"`
	More      bool       `json:"more,omitempty"`
	// WaitingForInput: the job (on a PTY) reads its terminal, its last
	// line most likely a question; nothing answers it but a write.
	WaitingForInput bool `json:"waitingForInput,omitempty"`
}

// ListOut is bg_list's result.
type ListOut struct {
	Jobs []JobOut `json:"jobs"`
}

// StopOut is bg_stop's result.
type StopOut struct {
	JobBrief
	Dropped bool `json:"dropped,omitempty"`
}

// StopGroupOut is bg_stop_group's result.
type StopGroupOut struct {
	Group   string   `json:"group"`
	Jobs    []JobOut `json:"jobs"`
	Dropped bool     `json:"dropped"`
}

// DropOut is bg_drop's result.
type DropOut struct {
	Dropped []string `json:"dropped"`
	Skipped []string `json:"skipped"`
}

// nullable is nil for "" (sent as JSON null), else a pointer to s.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
