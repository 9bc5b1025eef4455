package jobtools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
)

// pty_list names the owner's background jobs in its summary: a server
// without bg_list said "no open sessions" while a job ran, and a model
// that lost the job's id could not find it.
func TestListNamesJobs(t *testing.T) {
	f := newFixture(t)
	sessions := ptysession.New(f.svc, ptysession.Options{})
	var list func() string
	for _, tool := range ptytools.Tools(sessions) {
		if tool.Name == ptytools.ToolList {
			wrapped := ListNamesJobs(f.m, tool)
			list = func() string {
				res, err := wrapped.Handler(context.Background(), f.owner, json.RawMessage(`{}`), noProgress)
				if err != nil {
					t.Fatal(err)
				}
				return res.Text
			}
		}
	}
	if got := list(); got != "no open sessions" {
		t.Fatalf("without jobs: %q", got)
	}
	job := f.mustCall(ToolLaunch, `{"command":"sleep","args":["300"]}`).Structured.(LaunchOut)
	if got, want := list(), "no open sessions; 1 background job: "+job.ID+" running"; got != want {
		t.Fatalf("with a job:\n got %q\nwant %q", got, want)
	}
	f.mustCall(ToolStop, `{"id":"`+job.ID+`"}`)
	if got := list(); !strings.Contains(got, job.ID+" stopped (user") {
		t.Fatalf("after its stop: %q", got)
	}
	two := []jobs.Info{{ID: "job_a", State: jobs.StateRunning}, {ID: "job_b", State: jobs.StateRunning}}
	if got, want := withJobs("[1 session: pty_a running]\npty_a  shell", two),
		"[1 session: pty_a running; 2 background jobs: job_a running, job_b running]\npty_a  shell"; got != want {
		t.Fatalf("with a session:\n got %q\nwant %q", got, want)
	}
}
