package core_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestInputBaselineDiffers(t *testing.T) {
	base := core.InputBaseline{Group: 10, Leader: true, Wakes: 7, Readers: 11}
	cases := []struct {
		name string
		now  core.InputBaseline
		want bool
	}{
		{"the same wait", base, false},
		{"another group", core.InputBaseline{Group: 12, Wakes: 7, Readers: 11}, true},
		{"the reader woke", core.InputBaseline{Group: 10, Leader: true, Wakes: 8, Readers: 11}, true},
		// Another thread blocked with the count the old one had.
		{"another reader, same count", core.InputBaseline{Group: 10, Leader: true, Wakes: 7, Readers: 13}, true},
		// A peer that does not name readers: Group and Wakes decide.
		{"readers unknown now", core.InputBaseline{Group: 10, Leader: true, Wakes: 7}, false},
		{"readers unknown now, woke", core.InputBaseline{Group: 10, Leader: true, Wakes: 9}, true},
	}
	for _, c := range cases {
		if got := c.now.Differs(base); got != c.want {
			t.Errorf("%s: %+v.Differs(%+v) = %v, want %v", c.name, c.now, base, got, c.want)
		}
	}
	unnamed := core.InputBaseline{Group: 10, Leader: true, Wakes: 7}
	if (core.InputBaseline{Group: 10, Leader: true, Wakes: 7, Readers: 13}).Differs(unnamed) {
		t.Errorf("a baseline without readers differs from a wait with the same group and count")
	}
}
