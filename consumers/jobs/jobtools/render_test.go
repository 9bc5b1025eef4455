package jobtools

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
)

// bg_read's summary counts what it returned and what the job holds apart:
// one match of two lines is "1 matching line", and the total is the
// job's line count, not a count of matches.
func TestReadSummaryCountsMatchesAndLinesApart(t *testing.T) {
	r := jobs.ReadResult{Lines: []jobs.Line{{N: 1, Text: "GET / 200"}}, Total: 2, Next: 2, State: jobs.StateRunning}
	got := renderRead("GET", r, false)
	head, _, _ := strings.Cut(got, "\n")
	want := `[job running; 1 matching line of 2; read on from line 2]`
	if head != want {
		t.Fatalf("summary\n got %s\nwant %s", head, want)
	}
	r = jobs.ReadResult{Lines: []jobs.Line{{N: 0, Text: "a"}, {N: 1, Text: "b"}}, Total: 2, Next: 2, State: jobs.StateRunning}
	if head, _, _ := strings.Cut(renderRead("", r, false), "\n"); head != "[job running; 2 lines of 2; read on from line 2]" {
		t.Fatalf("summary without a pattern: %s", head)
	}
}

// One job is "1 job" in every count a result gives.
func TestCountsSayOneJob(t *testing.T) {
	one := []jobs.Info{{ID: "job_a"}}
	for _, c := range []struct{ got, want string }{
		{renderList(one, time.Now()), "[1 job]"},
		{renderStopGroup("g", one, false), `[stopped 1 job of group "g"]`},
		{renderDrop(jobs.DropResult{Dropped: []string{"job_a"}}), "[dropped 1 job]"},
		{renderDrop(jobs.DropResult{Skipped: []string{"job_a"}}), "kept 1 running job (stop it first)"},
		{renderList(append(one, one...), time.Now()), "[2 jobs]"},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("%q lacks %q", c.got, c.want)
		}
	}
}
