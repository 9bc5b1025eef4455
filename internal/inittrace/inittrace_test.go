package inittrace

import (
	"os"
	"strings"
	"testing"
)

const sample = `init internal/bytealg @0.006 ms, 0 ms clock, 0 bytes, 0 allocs
init example.com/a @1.2 ms, 0.34 ms clock, 288 bytes, 1 allocs
init example.com/a/b @80 ms, 36 ms clock, 944664 bytes, 5747 allocs
init example.com/c @81 ms, broken
`

// Parse finds the named package's line only (not a package whose path it
// prefixes) and skips malformed lines.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		pkg  string
		want Cost
		ok   bool
	}{
		{"example.com/a", Cost{288, 1}, true},
		{"example.com/a/b", Cost{944664, 5747}, true},
		{"example.com/c", Cost{}, false},
		{"example.com", Cost{}, false},
	} {
		if got, ok := Parse([]byte(sample), tc.pkg); got != tc.want || ok != tc.ok {
			t.Errorf("Parse(%s) = %+v, %v; want %+v, %v", tc.pkg, got, ok, tc.want, tc.ok)
		}
	}
}

// MeasureTest reads this test binary's own trace: this package allocates
// nothing at init, and package os does.
func TestMeasureTest(t *testing.T) {
	c, err := MeasureTest(t.Context(), os.Args[0], "os")
	if err != nil {
		t.Fatal(err)
	}
	if c.Allocs == 0 {
		t.Fatalf("os's init: %+v, want some allocations", c)
	}
	if _, err := MeasureTest(t.Context(), os.Args[0], "github.com/ptyseam/ptyseam/internal/inittrace"); err == nil || !strings.Contains(err.Error(), "no initialization") {
		t.Fatalf("a package without init work: %v, want no initialization in the trace", err)
	}
}

// FuzzParse: a cost found comes from a line of the trace that names the
// package and carries both counts as written.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sample), "example.com/a/b")
	f.Add([]byte("init p @1 ms, 2 ms clock, 3 bytes, 4 allocs"), "p")
	f.Fuzz(func(t *testing.T, b []byte, pkg string) {
		c, ok := Parse(b, pkg)
		if !ok {
			return
		}
		if !strings.Contains(string(b), "init "+pkg+" @") {
			t.Fatalf("found %+v for %q in a trace without its line", c, pkg)
		}
		if !strings.Contains(string(b), " allocs") || !strings.Contains(string(b), " bytes") {
			t.Fatalf("found %+v without counts", c)
		}
	})
}
