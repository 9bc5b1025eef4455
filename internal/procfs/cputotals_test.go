package procfs

import (
	"runtime"
	"testing"
)

func TestParseCPUTotals(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want CPUTotals
		ok   bool
	}{
		// user nice system idle iowait irq softirq steal guest guest_nice
		{"cpu  100 2 30 1000 5 1 2 3 40 4\ncpu0 50 1 15 500 2 0 1 1 20 2\n", CPUTotals{Busy: 138, Total: 1143}, true},
		{"cpu 1 2 3 4", CPUTotals{Busy: 6, Total: 10}, true}, // old kernels: four fields
		{"cpu  1 2 3", CPUTotals{}, false},
		{"cpu0 1 2 3 4 5", CPUTotals{}, false},
		{"intr 1 2 3 4 5", CPUTotals{}, false},
		{"cpu  1 2 x 4 5", CPUTotals{}, false},
		{"cpu  1 2 -3 4 5", CPUTotals{}, false},
		{"", CPUTotals{}, false},
	} {
		got, err := ParseCPUTotals([]byte(tc.in))
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseCPUTotals(%q) = %+v, %v; want %+v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestReadCPUTotalsAdvances(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no /proc/stat on this system")
	}
	a, err := ReadCPUTotals()
	if err != nil {
		t.Fatal(err)
	}
	if a.Busy == 0 || a.Busy > a.Total {
		t.Fatalf("ReadCPUTotals = %+v: busy must be within the total and not zero", a)
	}
	// Spin until the counters move: the total is wall time of every CPU.
	for {
		b, err := ReadCPUTotals()
		if err != nil {
			t.Fatal(err)
		}
		if b.Total < a.Total || b.Busy < a.Busy {
			t.Fatalf("counters went back: %+v then %+v", a, b)
		}
		if b.Busy > a.Busy {
			return
		}
	}
}
