package main

import (
	"strings"
	"testing"
)

// The watch page lists a job under the id its model knows (job_...), not
// its internal terminal session id.
func TestWatchListsAJobByItsJobID(t *testing.T) {
	cs, ts := connect(t, defaultConfig(t, "--watch", "127.0.0.1:0"))
	if ts.hub == nil {
		t.Fatal("--watch made no hub")
	}
	launched, res := call(t, cs, "bg_launch", map[string]any{"command": "sleep", "args": []any{"30"}})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	jobID, _ := launched["id"].(string)
	if !strings.HasPrefix(jobID, "job_") {
		t.Fatalf("bg_launch: %v", launched)
	}
	found := false
	for _, v := range ts.hub.List() {
		if v.Kind != "job" {
			continue
		}
		found = true
		if v.ModelID != jobID {
			t.Errorf("the job's row names %q, want %s", v.ModelID, jobID)
		}
	}
	if !found {
		t.Fatalf("no job row in %+v", ts.hub.List())
	}
}

// A terminal opened with a command typed into its shell is listed with
// that command, not as a bare shell.
func TestWatchListsATerminalsTypedCommand(t *testing.T) {
	cs, ts := connect(t, defaultConfig(t, "--watch", "127.0.0.1:0"))
	file := t.TempDir() + "/w15.txt"
	opened, res := call(t, cs, "pty_open", map[string]any{"command": "vi " + file})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	id, _ := opened["sessionId"].(string)
	for _, v := range ts.hub.List() {
		if v.ID == id {
			if len(v.Command) != 1 || v.Command[0] != "vi "+file || v.ModelID != id {
				t.Fatalf("the session is listed as %+v", v)
			}
			return
		}
	}
	t.Fatalf("%s is not listed: %+v", id, ts.hub.List())
}
