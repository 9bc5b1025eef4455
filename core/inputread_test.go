package core

import "testing"

func TestInputReadDiscarded(t *testing.T) {
	base := InputRead{Group: 7, PIDs: []int{7, 9}, Read: 100, Pending: 0}
	for _, c := range []struct {
		name    string
		now     InputRead
		written int
		want    int
	}{
		{"all read", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 103}, 3, 0},
		{"one read, two flushed", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 101}, 3, 2},
		{"two still pending", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 101, Pending: 2}, 3, 0},
		{"other files read too", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 5000}, 3, 0},
		{"a new process in the group", InputRead{Group: 7, PIDs: []int{7, 9, 12}, Read: 101}, 3, 2},
		{"another group", InputRead{Group: 8, PIDs: []int{7, 9}, Read: 100}, 3, 0},
		{"a reader gone", InputRead{Group: 7, PIDs: []int{7}, Read: 100}, 3, 0},
		{"pending unknown", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 100, Pending: -1}, 3, 0},
		{"count went back", InputRead{Group: 7, PIDs: []int{7, 9}, Read: 50}, 3, 0},
	} {
		if got := c.now.Discarded(base, c.written); got != c.want {
			t.Errorf("%s: Discarded = %d, want %d", c.name, got, c.want)
		}
	}
	if got := (InputRead{Group: 7, PIDs: []int{7}, Read: 1}).Discarded(InputRead{Group: 7, PIDs: []int{7}, Pending: -1}, 3); got != 0 {
		t.Errorf("base pending unknown: %d", got)
	}
}
