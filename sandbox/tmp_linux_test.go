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
	want := []keptPath{{"/tmp/a-b", true}, {"/tmp/both", true}, {"/tmp/ro", false}, {"/tmp/rw", true}, {"/tmp/a/c", true}, {"/tmp/ro/rw-inside", true}}
	if got := pathsBelow("/tmp", p, "/work"); !slices.Equal(got, want) {
		t.Fatalf("pathsBelow:\n got %v\nwant %v", got, want)
	}
	want = append(want, keptPath{"/tmp/wd/x", false})
	slices.SortFunc(want, func(a, b keptPath) int {
		return cmp.Or(strings.Count(a.path, "/")-strings.Count(b.path, "/"), strings.Compare(a.path, b.path))
	})
	if got := pathsBelow("/tmp", p, "/tmp/wd/x"); !slices.Equal(got, want) {
		t.Fatalf("pathsBelow:\n got %v\nwant %v", got, want)
	}
}
