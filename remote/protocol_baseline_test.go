package remote

import (
	"encoding/json"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A baseline crosses the stream with its readers, and one from a peer that
// does not know them (they were added within version 1) decodes with none,
// so that the agent compares it on group and wake-ups as that peer would.
func TestWireBaselineReaders(t *testing.T) {
	b := core.InputBaseline{Group: 40, Leader: true, Wakes: 3, Readers: 41}
	data, err := json.Marshal(toWireBaseline(b))
	if err != nil {
		t.Fatal(err)
	}
	var w wireBaseline
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	if got := w.baseline(); got != b {
		t.Fatalf("round trip: %+v, want %+v (frame %s)", got, b, data)
	}

	var old wireBaseline
	if err := json.Unmarshal([]byte(`{"group":40,"leader":true,"wakes":3}`), &old); err != nil {
		t.Fatal(err)
	}
	base := old.baseline()
	if base.Readers != 0 {
		t.Fatalf("a frame without readers decoded as %+v", base)
	}
	if b.Differs(base) {
		t.Fatalf("%+v differs from the same wait sent by a peer without readers %+v", b, base)
	}
	if !(core.InputBaseline{Group: 40, Leader: true, Wakes: 4, Readers: 41}).Differs(base) {
		t.Fatalf("a reader that woke does not differ from a baseline without readers")
	}
}

// An answer to input_wait crosses the stream whole, the event loop's flag
// with it (without it the host settles a Node REPL that awaits a promise
// on its read, before the answer) and a password dialog's.
func TestWireInputWaitRoundTrip(t *testing.T) {
	for _, iw := range []core.InputWait{
		{Now: core.InputBaseline{Group: 7, Wakes: 9, Readers: 8}, Reading: true, Waiting: true, New: true, EventLoop: true},
		{Now: core.InputBaseline{Group: 7, Leader: true}, Reading: true, Relay: true},
		{Now: core.InputBaseline{Group: 3}, Reading: true, Waiting: true, Hidden: true},
		{Now: core.InputBaseline{Group: 3}, Reading: true, Waiting: true, Dialog: true},
	} {
		data, err := json.Marshal(toWireInputWait(iw))
		if err != nil {
			t.Fatal(err)
		}
		var w wireInputWait
		if err := json.Unmarshal(data, &w); err != nil {
			t.Fatal(err)
		}
		if got := w.inputWait(); got != iw {
			t.Fatalf("round trip: %+v, want %+v (frame %s)", got, iw, data)
		}
	}
}
