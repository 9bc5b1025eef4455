package core

import "testing"

func TestInputReadDiscarded(t *testing.T) {
	base := InputRead{Group: 7, PIDs: []int{7, 9}, Read: 100, Pending: 0}
	for _, c := range []struct {
		name    string
		now     InputRead
		written string
		want    int
	}{
		{"all read", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 103}, "abc", 0},
		{"one read, two flushed", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 101}, "abc", 2},
		{"two still pending", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 101, Pending: 2}, "abc", 0},
		{"other files read too", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 5000}, "abc", 0},
		{"a new process in the group", InputRead{Group: 7, PIDs: []int{7, 9, 12}, Read: 101}, "abc", 2},
		{"another group", InputRead{Group: 8, PIDs: []int{7, 9}, Read: 100}, "abc", 0},
		{"a reader gone", InputRead{Group: 7, PIDs: []int{7}, Read: 100}, "abc", 0},
		{"pending unknown", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 100, Pending: -1}, "abc", 0},
		{"count went back", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 50}, "abc", 0},
	} {
		if got := c.now.Discarded(base, []byte(c.written)); got != c.want {
			t.Errorf("%s: Discarded = %d, want %d", c.name, got, c.want)
		}
	}
	// A Ctrl-C the terminal turned into SIGINT was never queued: no
	// discard is claimed for a send holding one.
	sig := InputRead{Group: 7, PIDs: []int{7, 9}, Read: 101, Special: "\x03\x1c\x1a"}
	if got := sig.Discarded(base, []byte("a\x03")); got != 0 {
		t.Errorf("a send with Ctrl-C while ISIG is on: %d", got)
	}
	if got := sig.Discarded(base, []byte("abc")); got != 2 {
		t.Errorf("ordinary keys with ISIG on: %d, want 2", got)
	}
	if got := (InputRead{Group: 7, PIDs: []int{7}, Read: 1}).Discarded(InputRead{Group: 7, PIDs: []int{7}, Pending: -1}, []byte("abc")); got != 0 {
		t.Errorf("base pending unknown: %d", got)
	}
}
