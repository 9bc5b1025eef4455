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
