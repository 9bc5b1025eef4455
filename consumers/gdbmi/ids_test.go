package gdbmi

import (
	"slices"
	"testing"
)

// TestStoppedDecodesIDsAndWatchpoints decodes *stopped records as gdb
// prints them in all-stop and non-stop mode and at watchpoints.
func TestStoppedDecodesIDsAndWatchpoints(t *testing.T) {
	for _, tc := range []struct {
		line   string
		all    bool
		ids    []ThreadID
		thread ThreadID
		bp     BreakpointNumber
		wp     *Watchpoint
		val    *WatchValue
	}{
		{line: `*stopped,reason="breakpoint-hit",disp="keep",bkptno="12",thread-id="3",stopped-threads="all"`, all: true, thread: 3, bp: "12"},
		{line: `*stopped,reason="signal-received",thread-id="2",stopped-threads=["2","5"]`, ids: []ThreadID{2, 5}, thread: 2},
		{line: `*stopped,reason="watchpoint-trigger",wpt={number="4",exp="level"},value={old="1",new="2"},thread-id="1",stopped-threads="all"`,
			all: true, thread: 1, wp: &Watchpoint{Number: "4", Exp: "level"}, val: &WatchValue{Old: "1", New: "2"}},
		{line: `*stopped,reason="read-watchpoint-trigger",hw-rwpt={number="5",exp="x"},value={value="7"},thread-id="1",stopped-threads="all"`,
			all: true, thread: 1, wp: &Watchpoint{Number: "5", Exp: "x"}, val: &WatchValue{Value: "7"}},
		{line: `*stopped,reason="watchpoint-scope",wpnum="6",thread-id="1",stopped-threads="all"`, all: true, thread: 1, wp: &Watchpoint{Number: "6"}},
	} {
		r, err := ParseLineString(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		st := decodeStopped(r)
		all, ids := st.StoppedThreadIDs()
		if all != tc.all || !slices.Equal(ids, tc.ids) || st.ThreadID != tc.thread || st.BreakpointNumber != tc.bp {
			t.Errorf("%s: all %v ids %v thread %d bp %q", tc.line, all, ids, st.ThreadID, st.BreakpointNumber)
		}
		if (st.Watchpoint == nil) != (tc.wp == nil) || st.Watchpoint != nil && *st.Watchpoint != *tc.wp {
			t.Errorf("%s: watchpoint %+v", tc.line, st.Watchpoint)
		}
		if (st.Value == nil) != (tc.val == nil) || st.Value != nil && *st.Value != *tc.val {
			t.Errorf("%s: value %+v", tc.line, st.Value)
		}
	}
}
