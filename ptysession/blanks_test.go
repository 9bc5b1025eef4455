package ptysession_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// TestNoTrailingBlanks: a program that pads its lines to the width (top,
// tables) costs the model no blank columns: no line of a result that shows
// terminal output ends in a space (the unfinished last line, a prompt,
// aside).
func TestNoTrailingBlanks(t *testing.T) {
	s, ctx := localSessions(t)
	d, err := tools.NewDispatcher(tools.Options{}, append(ptytools.Tools(s), ptytools.WaitTool(s))...)
	if err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("model")
	call := func(tool, args string) string {
		t.Helper()
		res, err := d.Call(ctx, owner, tool, json.RawMessage(args), tools.CallOptions{})
		if err != nil {
			t.Fatalf("%s %s: %v", tool, args, err)
		}
		return res.Text
	}
	check := func(tool, text string) {
		t.Helper()
		lines := strings.Split(text, "\n")
		for i, l := range lines[:len(lines)-1] {
			if strings.HasSuffix(l, " ") {
				t.Fatalf("%s: line %d ends in blanks: %q in\n%q", tool, i, l, text)
			}
		}
		if !strings.Contains(text, "row 2|") {
			t.Fatalf("%s: the padded rows are missing:\n%q", tool, text)
		}
	}
	const pad = `printf 'row %s|%40s\n' 1 '' 2 ''; printf 'x%30s\r\n' ''`
	opened := call(ptytools.ToolOpen, `{"command":`+quoteJSON(pad)+`}`)
	check(ptytools.ToolOpen, opened)
	id := strings.Fields(strings.TrimPrefix(opened, "[session "))[0]
	check(ptytools.ToolSend, call(ptytools.ToolSend, `{"id":"`+id+`","data":`+quoteJSON(pad)+`}`))
	call(ptytools.ToolSend, `{"id":"`+id+`","data":`+quoteJSON("sleep 0.5; "+pad)+`,"timeoutMs":100}`)
	waited := call(ptytools.ToolWait, `{"id":"`+id+`","conditions":[{"kind":"output","pattern":"^x"}],"timeoutMs":5000}`)
	// The wait's output holds the matched line, trimmed like every line.
	if !strings.Contains(waited, "\nx\n") {
		t.Fatalf("%s: the matched line is not the trimmed one: %q", ptytools.ToolWait, waited)
	}
	check(ptytools.ToolWait, waited)
	// The wait took the output so far; output printed after a send
	// returned comes with a tail.
	call(ptytools.ToolSend, `{"id":"`+id+`","data":`+quoteJSON("sleep 0.3; "+pad)+`,"timeoutMs":100}`)
	var tailed string // the tail that returned the padded rows
	for deadline := time.Now().Add(testenv.HangBound); tailed == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if t := call(ptytools.ToolTail, `{"id":"`+id+`","lines":10}`); strings.Contains(t, "\nx\n") {
			tailed = t
		}
	}
	check(ptytools.ToolTail, tailed)
	check(ptytools.ToolRead, call(ptytools.ToolRead, `{"id":"`+id+`","start":0,"lines":20}`))
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
