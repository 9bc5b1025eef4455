package jobtools

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStatusSendsNulls: a running job's exitCode and signal are sent as
// null in bg_list's record, not left out, as the schema and the doc
// comment say.
func TestStatusSendsNulls(t *testing.T) {
	f := newFixture(t)
	job := f.mustCall(ToolLaunch, `{"command":"sleep","args":["30"]}`).Structured.(LaunchOut)
	res := f.mustCall(ToolList, `{}`)
	b, err := json.Marshal(res.Structured)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"exitCode":null`, `"signal":null`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("status JSON lacks %s: %s", want, b)
		}
	}
	f.mustCall(ToolStop, `{"id":"`+job.ID+`"}`)
}
