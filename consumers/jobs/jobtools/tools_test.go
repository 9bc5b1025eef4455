package jobtools

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// noProgress stands in for the dispatcher's progress callback; the bg_*
// tools report none.
func noProgress(tools.ProgressUpdate) {}

type fixture struct {
	svc   *core.Service
	m     *jobs.Manager
	owner *core.Owner
	tools map[string]tools.Tool
	t     *testing.T
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := core.New(core.Options{Logger: log})
	if err := localpty.Register(svc); err != nil { // for "backend": "pty"
		t.Fatal(err)
	}
	m, err := jobs.New(svc, jobs.Config{Backend: jobs.BackendPipe, StopGrace: 200 * time.Millisecond, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := m.Shutdown(ctx); err != nil {
			t.Error(err)
		}
		if err := svc.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	})
	f := &fixture{svc: svc, m: m, owner: core.NewOwner("agent"), tools: map[string]tools.Tool{}, t: t}
	for _, tool := range Tools(m) {
		f.tools[tool.Name] = tool
	}
	return f
}

// call runs a tool and checks its result against the output schema.
func (f *fixture) call(name string, args string) (tools.Result, error) {
	f.t.Helper()
	tool, ok := f.tools[name]
	if !ok {
		f.t.Fatalf("no tool %s", name)
	}
	res, err := tool.Handler(context.Background(), f.owner, json.RawMessage(args), noProgress)
	if err != nil {
		var te *tools.ToolError
		if !errors.As(err, &te) || te.Code == "" {
			f.t.Fatalf("%s returned a non-tool error %T %v", name, err, err)
		}
		return res, err
	}
	if err := checkOutput(tool.Definition, res); err != nil {
		f.t.Fatalf("%s output does not match its schema: %v", name, err)
	}
	if len(res.Text) > core.DefaultMaxTextBytes || res.Text == "" {
		f.t.Fatalf("%s text of %d bytes", name, len(res.Text))
	}
	return res, nil
}

func (f *fixture) mustCall(name, args string) tools.Result {
	f.t.Helper()
	res, err := f.call(name, args)
	if err != nil {
		f.t.Fatalf("%s %s: %v", name, args, err)
	}
	return res
}

func TestDefinitions(t *testing.T) {
	f := newFixture(t)
	want := []string{ToolLaunch, ToolSend, ToolRead, ToolList, ToolStop, ToolStopGroup, ToolDrop}
	got := Tools(f.m)
	if len(got) != len(want) {
		t.Fatalf("%d tools", len(got))
	}
	// The schemas are ones the dispatcher accepts, and the tools sit next to
	// others in it.
	if _, err := tools.NewDispatcher(tools.Options{}, got...); err != nil {
		t.Fatal(err)
	}
	for i, tool := range got {
		if tool.Name != want[i] || tool.Description == "" || tool.Title == "" || tool.Handler == nil {
			t.Errorf("tool %d: %+v", i, tool.Definition)
		}
		for _, s := range []json.RawMessage{tool.InputSchema, tool.OutputSchema} {
			var m map[string]any
			if err := json.Unmarshal(s, &m); err != nil || m["type"] != "object" {
				t.Errorf("%s schema %s: %v", tool.Name, s, err)
			}
		}
	}
}

func TestToolsEndToEnd(t *testing.T) {
	f := newFixture(t)
	res := f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","echo ready; while read l; do echo \"got $l\"; done"],"title":"echoer","group":"g","ports":[1]}`)
	job := res.Structured.(LaunchOut)
	if job.Status != "running" || job.PID == 0 || !strings.HasPrefix(res.Text, "[job "+job.ID+" running") || !strings.Contains(res.Text, `group "g", backend pipe`) {
		t.Fatalf("launch %+v\n%s", job, res.Text)
	}
	// Port 1 is not listened on here: no warning.
	if len(job.Warnings) != 0 {
		t.Fatalf("warnings %q", job.Warnings)
	}
	res = f.mustCall(ToolSend, `{"id":"`+job.ID+`","data":"hi\\x21\\n"}`)
	if s := res.Structured.(SendOut); s.Bytes != 4 || s.Echo != `hi!\n` {
		t.Fatalf("send %+v", s)
	}
	var read ReadOut
	for deadline := time.Now().Add(testenv.HangBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		res = f.mustCall(ToolRead, `{"id":"`+job.ID+`","from":0}`)
		read = res.Structured.(ReadOut)
		if len(read.Lines) == 2 {
			break
		}
	}
	if len(read.Lines) != 2 || read.Lines[1].Text != "got hi!" || read.Next != 2 {
		t.Fatalf("read %+v", read)
	}
	if !regexp.MustCompile(`(?m)^1  got hi!$`).MatchString(res.Text) {
		t.Fatalf("read text %q", res.Text)
	}
	res = f.mustCall(ToolRead, `{"id":"`+job.ID+`","pattern":"GOT","ignoreCase":true}`)
	if r := res.Structured.(ReadOut); len(r.Lines) != 1 || r.Lines[0].N != 1 {
		t.Fatalf("filtered %+v", r)
	}
	res = f.mustCall(ToolList, `{"group":"g","status":"running"}`)
	if l := res.Structured.(ListOut); len(l.Jobs) != 1 || l.Jobs[0].Output.Lines != 2 {
		t.Fatalf("list %+v", l)
	}
	res = f.mustCall(ToolStop, `{"id":"`+job.ID+`"}`)
	if s := res.Structured.(StopOut); s.Status != "stopped" || s.Reason != "user" || s.Dropped {
		t.Fatalf("stop %+v", s)
	}
	if _, err := f.call(ToolSend, `{"id":"`+job.ID+`","data":"x"}`); !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("send to a stopped job: %v", err)
	}
	f.mustCall(ToolLaunch, `{"command":"sleep","args":["300"],"group":"g"}`)
	res = f.mustCall(ToolDrop, `{"group":"g"}`)
	if d := res.Structured.(DropOut); len(d.Dropped) != 1 || d.Dropped[0] != job.ID || len(d.Skipped) != 1 {
		t.Fatalf("drop %+v", d)
	}
	res = f.mustCall(ToolStopGroup, `{"group":"g","drop":true}`)
	if s := res.Structured.(StopGroupOut); len(s.Jobs) != 1 || s.Jobs[0].Status != "stopped" || !s.Dropped {
		t.Fatalf("stop group %+v", s)
	}
	res = f.mustCall(ToolList, `{}`)
	if l := res.Structured.(ListOut); len(l.Jobs) != 0 || res.Text != "[no jobs]" {
		t.Fatalf("list after drop %+v %q", l, res.Text)
	}
}

func TestToolErrors(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		tool, args, code, inMessage string
	}{
		{ToolLaunch, `{}`, "INVALID_ARGUMENT", `"command"`},
		{ToolLaunch, `{"command":"true","bogus":1}`, "INVALID_ARGUMENT", `"bogus"`},
		{ToolLaunch, `{"command":"true","timeoutMs":"soon"}`, "INVALID_ARGUMENT", `"timeoutMs"`},
		{ToolLaunch, `{"command":"true","ports":[70000]}`, "INVALID_ARGUMENT", "70000"},
		{ToolLaunch, `{"command":"true","backend":"tmux"}`, "INVALID_ARGUMENT", `"backend"`},
		{ToolLaunch, `{"command":"/no/such/program"}`, "SPAWN_FAILED", ""},
		{ToolLaunch, `[1]`, "INVALID_ARGUMENT", "object"},
		{ToolSend, `{"data":"x"}`, "INVALID_ARGUMENT", `"id"`},
		{ToolSend, `{"id":"job_nosuch","data":"x"}`, "NO_SESSION", ""},
		{ToolRead, `{"id":"job_nosuch"}`, "NO_SESSION", ""},
		{ToolRead, `{"id":"pty_aterminal"}`, "WRONG_KIND", "terminal session"},
		{ToolRead, `{"id":"x","limit":0.5}`, "INVALID_ARGUMENT", `"limit"`},
		{ToolList, `{"status":"sleeping"}`, "INVALID_ARGUMENT", `"status"`},
		{ToolStop, `{"id":"job_nosuch"}`, "NO_SESSION", ""},
		{ToolSend, `{"id":"pty_aterminal","data":"x"}`, "WRONG_KIND", "terminal session"},
		{ToolStopGroup, `{}`, "INVALID_ARGUMENT", `"group"`},
		{ToolDrop, `{"id":"a","group":"b"}`, "INVALID_ARGUMENT", "not both"},
	}
	for _, c := range cases {
		_, err := f.call(c.tool, c.args)
		var te *tools.ToolError
		if !errors.As(err, &te) || te.Code != c.code || !strings.Contains(te.Message, c.inMessage) || te.Hint == "" {
			t.Errorf("%s %s: %#v", c.tool, c.args, err)
		}
	}
	// A bad pattern, a running job dropped by id, another owner's job.
	job := f.mustCall(ToolLaunch, `{"command":"sleep","args":["300"]}`).Structured.(LaunchOut)
	if _, err := f.call(ToolRead, `{"id":"`+job.ID+`","pattern":"("}`); !errors.Is(err, core.ErrInvalidArgument) {
		t.Errorf("bad pattern: %v", err)
	}
	_, err := f.call(ToolDrop, `{"id":"`+job.ID+`"}`)
	var te *tools.ToolError
	if !errors.As(err, &te) || te.Code != string(jobs.CodeJobRunning) || !strings.Contains(te.Text(), "bg_stop") {
		t.Errorf("drop running: %v", err)
	}
	other := f.tools[ToolStop].Handler
	if _, err := other(context.Background(), core.NewOwner("intruder"), json.RawMessage(`{"id":"`+job.ID+`"}`), noProgress); !errors.Is(err, core.ErrForeignSession) {
		t.Errorf("foreign stop: %v", err)
	}
}

func TestBound(t *testing.T) {
	s := strings.Repeat("é", 100)
	b := tools.BoundHead(s, 50)
	if len(b) > 50 || !strings.Contains(b, "bytes cut") || !strings.HasPrefix(b, "é") {
		t.Fatalf("bound %q (%d bytes)", b, len(b))
	}
	if tools.BoundHead("short", 50) != "short" {
		t.Fatal("short text changed")
	}
}

// TestLaunchOfACommandLineSaysHowToSplitIt: a model passed a whole command
// line as command ("python3 -m http.server 8765") and was told only that
// no such executable is on PATH. The refusal now gives the call to make:
// the words in args, or the line to sh -c. A line longer than any path is
// refused before the spawn, as an argument, with the same hint.
func TestLaunchOfACommandLineSaysHowToSplitIt(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ args, code, want string }{
		{`{"command":"sleep 300"}`, "SPAWN_FAILED", `{"command":"sleep","args":["300"]}`},
		{`{"command":"python3 -m http.server 8765"}`, "SPAWN_FAILED", `{"command":"python3","args":["-m","http.server","8765"]}`},
		{`{"command":"sleep 1 && echo done"}`, "SPAWN_FAILED", `{"command":"sh","args":["-c","sleep 1 && echo done"]}`},
		{`{"command":"echo 'a b'"}`, "SPAWN_FAILED", `{"command":"sh","args":["-c","echo 'a b'"]}`},
		{`{"command":"echo ` + strings.Repeat("x", 5000) + `"}`, "INVALID_ARGUMENT", `{"command":"sh","args":["-c","<the line>"]}`}, // not repeated back
	} {
		_, err := f.call(ToolLaunch, c.args)
		var te *tools.ToolError
		if !errors.As(err, &te) || te.Code != c.code || !strings.Contains(te.Hint, c.want) || len(te.Hint) > 2*maxHintLine+300 {
			t.Errorf("%.80s: %#v, want %s with a bounded hint holding %s", c.args, err, c.code, c.want)
		}
	}
}

// bg_read of a job that ended says how: its exit code in the result and
// in the summary (a model read "[job failed; …]" and no code).
func TestReadSaysHowTheJobEnded(t *testing.T) {
	f := newFixture(t)
	job := f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","echo last words; exit 4"]}`).Structured.(LaunchOut)
	var res tools.Result
	var read ReadOut
	for deadline := time.Now().Add(testenv.HangBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		res = f.mustCall(ToolRead, `{"id":"`+job.ID+`","from":0}`)
		if read = res.Structured.(ReadOut); read.Status != "running" {
			break
		}
	}
	if read.Status != "failed" || read.ExitCode == nil || *read.ExitCode != 4 || read.Signal != "" {
		t.Fatalf("read of the ended job %+v", read)
	}
	if !strings.HasPrefix(res.Text, "[job failed (exit 4); 1 line of 1;") {
		t.Fatalf("read text %q", res.Text)
	}
	j, _ := json.Marshal(f.mustCall(ToolRead, `{"id":"`+job.ID+`"}`).Structured)
	if !strings.Contains(string(j), `"exitCode":4`) {
		t.Fatalf("structured read %s", j)
	}
}

// TestReadSaysTheJobWaitsForInput: a PTY job that asks a question and
// reads its terminal is named as waiting in bg_read's summary and
// structured result (a model polling its output would wait forever);
// once answered, and for a job that prints without asking, it is not.
func TestReadSaysTheJobWaitsForInput(t *testing.T) {
	f := newFixture(t)
	job := f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","printf 'Proceed? (y) '; read a; echo got $a; sleep 30"],"backend":"pty"}`).Structured.(LaunchOut)
	var res tools.Result
	for deadline := time.Now().Add(testenv.HangBound); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if res = f.mustCall(ToolRead, `{"id":"`+job.ID+`","from":0}`); res.Structured.(ReadOut).WaitingForInput {
			break
		}
	}
	if !res.Structured.(ReadOut).WaitingForInput || !strings.HasPrefix(res.Text, "[job running, waiting for input on its terminal;") {
		t.Fatalf("read of a job at its question: %q %+v", res.Text, res.Structured)
	}
	if _, err := f.m.Write(context.Background(), f.owner, job.ID, "y\n"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(testenv.HangBound); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if res = f.mustCall(ToolRead, `{"id":"`+job.ID+`","from":0}`); strings.Contains(res.Text, "got y") {
			break
		}
	}
	if res.Structured.(ReadOut).WaitingForInput || !strings.HasPrefix(res.Text, "[job running; ") {
		t.Fatalf("read of the answered job, asleep: %q", res.Text)
	}
}
