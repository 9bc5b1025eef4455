package pipebackend

import "testing"

func TestParseStat(t *testing.T) {
	line := []byte("4242 (we(ir)d name) S 17 4242 4242 34816 4242 4194560 109 0 0 0 0 0 0 0 20 0 1 0 987654 8118272 231 18446744073709551615")
	st, ok := parseStat(line)
	if !ok || st.ppid != 17 || st.pgid != 4242 || st.state != 'S' || st.start != 987654 {
		t.Fatalf("parseStat = %+v, %v", st, ok)
	}
	for _, bad := range []string{"", "1 (x)", "1 (x) S a b", "1 (x) SS 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"} {
		if _, ok := parseStat([]byte(bad)); ok {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("1 (init) S 0 1 1 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 5 1 1 1"))
	f.Add([]byte("2 (a) b) Z 1 2 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 18446744073709551615"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, ok := parseStat(b)
		if !ok && st != (procStat{}) {
			t.Fatalf("rejected input returned %+v", st)
		}
	})
}

// zombieOrGone reports that pid is not running (a zombie is not).
func (p proc) zombieOrGone() bool {
	st, ok := readStat(p.pid)
	return !ok || dead(st.state)
}
