package jobtools

import (
	"encoding/json"
	"testing"

	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// maxRecordBytes bounds what bg_launch and bg_stop return for one job
// (the MCP result's headline and structured content): the id, the state,
// the pid or the exit, and a one-line summary. bg_list gives the whole
// record.
const maxRecordBytes = 220

// resultBytes is what a structured MCP result carries to the model: the
// text's headline and the structured content as JSON.
func resultBytes(t *testing.T, res tools.Result) int {
	t.Helper()
	b, err := json.Marshal(res.Structured)
	if err != nil {
		t.Fatal(err)
	}
	return len(tools.Headline(res.Text)) + len(b)
}

// TestLaunchAndStopResultsAreSmall: a launch and a stop carry a job's
// brief record, not the whole one (about 550 bytes before).
func TestLaunchAndStopResultsAreSmall(t *testing.T) {
	f := newFixture(t)
	launched := f.mustCall(ToolLaunch, `{"command":"sleep","args":["300"],"title":"a sleeper","group":"g"}`)
	id := launched.Structured.(LaunchOut).ID
	stopped := f.mustCall(ToolStop, `{"id":"`+id+`"}`)
	listed := f.mustCall(ToolList, `{}`)
	for name, res := range map[string]tools.Result{ToolLaunch: launched, ToolStop: stopped} {
		n := resultBytes(t, res)
		t.Logf("%s: %d bytes (bg_list's record: %d): %s / %+v", name, n, resultBytes(t, listed), tools.Headline(res.Text), res.Structured)
		if n > maxRecordBytes {
			t.Errorf("%s returned %d bytes for one job, more than %d", name, n, maxRecordBytes)
		}
	}
	if s := stopped.Structured.(StopOut); s.ID != id || s.Status != "stopped" || s.Reason != "user" || s.Dropped {
		t.Fatalf("stop %+v", s)
	}
}
