package sandbox

import (
	"cmp"
	"slices"
	"strings"
	"testing"
)

func TestTmpPathsKeepWhatAnAncestorDoesNotShow(t *testing.T) {
	p := Policy{
		ReadOnly: []string{"/", "/tmp/ro", "/tmp/ro/deeper", "/tmp/rw/ro-inside", "/tmp/both", "/usr"},
		Writable: []string{"/tmp/rw/", "/tmp/ro/rw-inside", "/tmp/both", "/tmp/a-b", "/tmp/a/c", "/dev/null"},
	}
	want := []tmpPath{{"/tmp/a-b", true}, {"/tmp/both", true}, {"/tmp/ro", false}, {"/tmp/rw", true}, {"/tmp/a/c", true}, {"/tmp/ro/rw-inside", true}}
	if got := tmpPaths(p, "/work"); !slices.Equal(got, want) {
		t.Fatalf("tmpPaths:\n got %v\nwant %v", got, want)
	}
	want = append(want, tmpPath{"/tmp/wd/x", false})
	slices.SortFunc(want, func(a, b tmpPath) int {
		return cmp.Or(strings.Count(a.path, "/")-strings.Count(b.path, "/"), strings.Compare(a.path, b.path))
	})
	if got := tmpPaths(p, "/tmp/wd/x"); !slices.Equal(got, want) {
		t.Fatalf("tmpPaths:\n got %v\nwant %v", got, want)
	}
}
