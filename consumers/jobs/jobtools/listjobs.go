package jobtools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// maxListedJobs bounds the jobs pty_list's summary names.
const maxListedJobs = 8

// ListNamesJobs wraps pty_list (ptysession/ptytools) so that its summary
// line names the owner's background jobs too ("no open sessions; 1
// background job: job_… running"): a model that lost a job's id finds it
// where it looks for what it has open, also on a server that serves no
// bg_list. At most maxListedJobs are named.
func ListNamesJobs(m *jobs.Manager, list tools.Tool) tools.Tool {
	inner := list.Handler
	list.Handler = func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(tools.ProgressUpdate)) (tools.Result, error) {
		res, err := inner(ctx, owner, args, progress)
		if err != nil {
			return res, err
		}
		if infos, lerr := m.List(owner, jobs.ListFilter{}); lerr == nil && len(infos) > 0 {
			res.Text = withJobs(res.Text, infos)
		}
		return res, nil
	}
	return list
}

// withJobs adds the jobs to text's first line, inside its brackets if it
// has them.
func withJobs(text string, infos []jobs.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d background job", len(infos))
	if len(infos) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(":")
	for i, in := range infos[:min(len(infos), maxListedJobs)] {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(" " + in.ID + " " + jobs.Outcome(in))
	}
	if n := len(infos) - maxListedJobs; n > 0 {
		fmt.Fprintf(&b, " and %d more", n)
	}
	head, rest, more := strings.Cut(text, "\n")
	if h, ok := strings.CutSuffix(head, "]"); ok {
		head = h + "; " + b.String() + "]"
	} else {
		head += "; " + b.String()
	}
	if more {
		return head + "\n" + rest
	}
	return head
}
