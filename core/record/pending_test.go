package record

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Events a recording cannot write (its disk stalled, no output to carry
// them) are bounded: past maxPending they are dropped, and the recording
// stops with a marker saying so instead of holding them all.
func TestPendingEventsAreBoundedAndStopTheRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.cast")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	x := &rec{f: f, w: f, start: time.Now(), max: 1 << 40, done: make(chan struct{})}
	r := &Recorder{recs: map[core.SessionID]*rec{"s-1": x}}
	input := bytes.Repeat([]byte("y"), 64<<10)
	for range 2 * maxPending / len(input) {
		r.OnEvent(core.Event{Kind: core.EventInput, Session: "s-1", Offset: 1, Data: input, Time: time.Now()})
	}
	x.mu.Lock()
	queued, n := x.queued, len(x.pending)
	x.mu.Unlock()
	if queued > maxPending || n >= 2*maxPending/len(input) {
		t.Fatalf("%d events (%d bytes) held, want at most %d bytes", n, queued, maxPending)
	}
	if !x.eventsLost() {
		t.Fatal("the recording did not notice the dropped events")
	}
	if x.flush(); x.err != nil {
		t.Fatal(x.err)
	}
	_ = f.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"m"`) || !strings.Contains(last, "inputs and markers") {
		t.Fatalf("the recording ends with %q, want the marker", last)
	}
}
