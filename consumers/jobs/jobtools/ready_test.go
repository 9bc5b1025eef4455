package jobtools

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/ptysession"
)

// readyBound is the readiness waits' timeoutMs: the most bg_launch allows
// (a failure bound; the default 15 s is a schedule a loaded machine can
// miss while sh starts).
var readyBound = strconv.FormatInt(MaxReadyTimeout.Milliseconds(), 10)

// TestLaunchWaitsForReadiness launches jobs that become ready by a line
// and by a URL, one that never does before it exits, and bad waits.
func TestLaunchWaitsForReadiness(t *testing.T) {
	f := newFixture(t)
	res := f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","echo warming; sleep 0.2; echo READY on 1; exec sleep 30"],"waitFor":{"line":"^READY","timeoutMs":`+readyBound+`}}`)
	out := res.Structured.(LaunchOut)
	if out.Ready == nil || !out.Ready.Ready || out.Ready.By != "line" || out.Ready.Detail != "READY on 1" {
		t.Fatalf("line wait: %+v", out.Ready)
	}
	if !strings.Contains(res.Text, "ready after") {
		t.Fatalf("text %q does not say it is ready", res.Text)
	}
	res = f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","sleep 0.2; echo listening on http://127.0.0.1:4173/; exec sleep 30"],"waitFor":{"url":true,"timeoutMs":`+readyBound+`}}`)
	out = res.Structured.(LaunchOut)
	if out.Ready == nil || !out.Ready.Ready || out.Ready.By != "url" || len(out.Services) == 0 {
		t.Fatalf("url wait: %+v services %v", out.Ready, out.Services)
	}
	res = f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","exit 2"],"waitFor":{"line":"never","timeoutMs":`+readyBound+`}}`)
	if r := res.Structured.(LaunchOut).Ready; r == nil || r.Ready || r.Reason != "exited" {
		t.Fatalf("exited job: %+v", r)
	}
	for _, bad := range []string{`{}`, `{"line":"("}`, `{"url":true,"timeoutMs":600000}`} {
		if _, err := f.call(ToolLaunch, `{"command":"true","waitFor":`+bad+`}`); err == nil || !strings.Contains(err.Error(), "INVALID_ARGUMENT") {
			t.Errorf("waitFor %s: %v, want INVALID_ARGUMENT", bad, err)
		}
	}
}

// TestLaunchWaitsForAPort: a job is ready by its port once the port
// accepts (here a listener of the test's, open before the launch), and a
// line printed before the wait began still counts (the line condition
// counts from the job's first line).
func TestLaunchWaitsForAPort(t *testing.T) {
	f := newFixture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	res := f.mustCall(ToolLaunch, fmt.Sprintf(`{"command":"sleep","args":["30"],"waitFor":{"port":%d,"timeoutMs":`+readyBound+`}}`, port))
	if r := res.Structured.(LaunchOut).Ready; r == nil || !r.Ready || r.By != "port" || r.Detail != strconv.Itoa(port) {
		t.Fatalf("port wait: %+v", r)
	}
	res = f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","echo READY first; exec sleep 30"],"waitFor":{"line":"^READY","timeoutMs":`+readyBound+`}}`)
	if r := res.Structured.(LaunchOut).Ready; r == nil || !r.Ready || r.By != "line" || r.Detail != "READY first" {
		t.Fatalf("line wait: %+v", r)
	}
}

// TestLaunchWithPortsSaysItDidNotWait: ports are checked before the
// launch, not waited for; the result says so and how to wait (a model
// launched a server with ports, curled it at once and got "connection
// refused").
func TestLaunchWithPortsSaysItDidNotWait(t *testing.T) {
	f := newFixture(t)
	res := f.mustCall(ToolLaunch, `{"command":"sleep","args":["30"],"ports":[1]}`)
	if res.Structured.(LaunchOut).Ready != nil || !strings.Contains(res.Text, `"waitFor":{"port":1}`) {
		t.Fatalf("launch with ports: %s", res.Text)
	}
	res = f.mustCall(ToolLaunch, `{"command":"sleep","args":["30"],"ports":[1],"waitFor":{"line":"x","timeoutMs":1}}`)
	if strings.Contains(res.Text, `"waitFor"`) {
		t.Fatalf("a launch that waited still points at waitFor: %s", res.Text)
	}
}

// TestLaunchWaitPatternAsPtyWait: bg_launch's waitFor.line is a wait
// pattern like pty_wait's: the same bound (ptysession.MaxWaitPattern) and
// the same INVALID_ARGUMENT message naming the field.
func TestLaunchWaitPatternAsPtyWait(t *testing.T) {
	f := newFixture(t)
	longest := strings.Repeat("a", ptysession.MaxWaitPattern)
	if _, err := f.call(ToolLaunch, `{"command":"true","waitFor":{"line":"`+longest+`","timeoutMs":`+readyBound+`}}`); err != nil {
		t.Errorf("a %d-byte pattern: %v", len(longest), err)
	}
	for bad, says := range map[string]string{
		`{"line":"("}`:                "waitFor.line: error parsing regexp",
		`{"line":"` + longest + `a"}`: fmt.Sprintf("waitFor.line: must be 1 to %d bytes", ptysession.MaxWaitPattern),
	} {
		_, err := f.call(ToolLaunch, `{"command":"true","waitFor":`+bad+`}`)
		if err == nil || !strings.Contains(err.Error(), "INVALID_ARGUMENT") || !strings.Contains(err.Error(), says) {
			t.Errorf("waitFor %.40s: %v, want INVALID_ARGUMENT saying %q", bad, err, says)
		}
	}
}

// TestReadPatternAsPtyWait: bg_read's pattern has the bound of every
// caller's pattern (ptysession.MaxWaitPattern); it was 1,000 bytes, so a
// pattern pty_wait took was refused here.
func TestReadPatternAsPtyWait(t *testing.T) {
	f := newFixture(t)
	res := f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","echo one; exec sleep 30"],"waitFor":{"line":"^one","timeoutMs":`+readyBound+`}}`)
	id := res.Structured.(LaunchOut).ID
	longest := "o" + strings.Repeat("n?", (ptysession.MaxWaitPattern-2)/2) + "e"
	res = f.mustCall(ToolRead, `{"id":"`+id+`","pattern":"`+longest+`"}`)
	if r := res.Structured.(ReadOut); len(r.Lines) != 1 || r.Lines[0].Text != "one" {
		t.Fatalf("a %d-byte pattern read %+v", len(longest), r)
	}
	_, err := f.call(ToolRead, `{"id":"`+id+`","pattern":"`+strings.Repeat("a", ptysession.MaxWaitPattern+1)+`"}`)
	if err == nil || !strings.Contains(err.Error(), "INVALID_ARGUMENT") {
		t.Fatalf("a %d-byte pattern: %v, want INVALID_ARGUMENT", ptysession.MaxWaitPattern+1, err)
	}
}
