package jobtools

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStatusSendsNulls: a running job's exitCode and signal are sent as
// null, not left out, as the schema and the doc comment say.
func TestStatusSendsNulls(t *testing.T) {
	f := newFixture(t)
	res := f.mustCall(ToolLaunch, `{"command":"sleep","args":["30"]}`)
	b, err := json.Marshal(res.Structured)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"exitCode":null`, `"signal":null`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("status JSON lacks %s: %s", want, b)
		}
	}
	job := res.Structured.(JobOut)
	f.mustCall(ToolStop, `{"id":"`+job.ID+`"}`)
}
