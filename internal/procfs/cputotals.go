package procfs

import "bytes"

// CPUTotals is the machine's CPU time from the "cpu" line of /proc/stat,
// in clock ticks (USER_HZ, 100 per second on Linux): Busy is every state
// but idle and iowait, Total every state.
type CPUTotals struct {
	Busy, Total uint64
}

// ParseCPUTotals parses the first line of /proc/stat ("cpu  user nice
// system idle iowait irq softirq steal guest guest_nice"). Guest time is
// already counted in user and nice, so it is not added again. At least
// the first four fields must be there.
func ParseCPUTotals(b []byte) (CPUTotals, error) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line)
	if !bytes.HasPrefix(line, []byte("cpu ")) || len(f) < 5 {
		return CPUTotals{}, ErrParse
	}
	var c CPUTotals
	for i, x := range f[1:] {
		if i >= 8 { // guest and guest_nice are part of user and nice
			break
		}
		n, ok := parseTicks(x)
		if !ok {
			return CPUTotals{}, ErrParse
		}
		c.Total += n
		if i != 3 && i != 4 { // idle, iowait
			c.Busy += n
		}
	}
	return c, nil
}

// ReadCPUTotals reads the machine's CPU time from /proc/stat.
func ReadCPUTotals() (CPUTotals, error) {
	b, err := ReadFile("/proc/stat", nil)
	if err != nil {
		return CPUTotals{}, err
	}
	return ParseCPUTotals(b)
}
