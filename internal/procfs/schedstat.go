package procfs

import (
	"bytes"
	"strconv"
)

// Schedstat holds /proc/PID/task/TID/schedstat: the task's time on a CPU
// and how often it was put on one. Both only grow, and a task cannot
// block, wake or run without changing at least one: the time grows when
// the task leaves a CPU (and at the scheduler's ticks while it runs), the
// count when it is put on one. Equal readings taken at two moments mean
// the task did not leave a CPU in between, so every count that changes
// only as a task leaves one (its voluntary context switches) is the same
// at both moments.
type Schedstat struct {
	RunNanos uint64 // time on a CPU (the first field)
	Runs     uint64 // times put on a CPU (the third field, pcount)
}

// Known reports whether the kernel counts (it writes "0 0 0" when its
// scheduler statistics are off).
func (s Schedstat) Known() bool { return s.RunNanos != 0 || s.Runs != 0 }

// ParseSchedstat parses the three decimal fields of a schedstat file.
func ParseSchedstat(b []byte) (Schedstat, error) {
	f := bytes.Fields(b)
	if len(f) != 3 {
		return Schedstat{}, ErrParse
	}
	var v [3]uint64
	for i, s := range f {
		n, err := strconv.ParseUint(string(s), 10, 64)
		if err != nil {
			return Schedstat{}, ErrParse
		}
		v[i] = n
	}
	return Schedstat{RunNanos: v[0], Runs: v[2]}, nil
}
