package procfs

import "math"

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

// ParseSchedstat parses the three decimal fields of a schedstat file,
// separated and surrounded by white space. It allocates nothing: the
// caller's buffer stays where it is (on its stack).
func ParseSchedstat(b []byte) (Schedstat, error) {
	var v [3]uint64
	n := 0
	for i := 0; ; {
		for i < len(b) && asciiSpace(b[i]) {
			i++
		}
		if i == len(b) {
			break
		}
		j := i
		for j < len(b) && !asciiSpace(b[j]) {
			j++
		}
		if n == len(v) {
			return Schedstat{}, ErrParse
		}
		x, ok := parseDecimal(b[i:j])
		if !ok {
			return Schedstat{}, ErrParse
		}
		v[n] = x
		n++
		i = j
	}
	if n != len(v) {
		return Schedstat{}, ErrParse
	}
	return Schedstat{RunNanos: v[0], Runs: v[2]}, nil
}

// asciiSpace reports whether c is white space as bytes.Fields sees it in
// ASCII.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// parseDecimal parses a non-empty run of decimal digits that fits in a
// uint64.
func parseDecimal(b []byte) (uint64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var x uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if x > (math.MaxUint64-d)/10 {
			return 0, false
		}
		x = x*10 + d
	}
	return x, true
}
