package jobtools

import (
	"strings"
	"testing"

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
