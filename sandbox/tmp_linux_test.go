package sandbox

import (
	"slices"
	"testing"
)

func TestTmpPathsKeepWhatAnAncestorDoesNotShow(t *testing.T) {
	p := Policy{
		ReadOnly: []string{"/", "/tmp/ro", "/tmp/ro/deeper", "/tmp/rw/ro-inside", "/tmp/both", "/usr"},
		Writable: []string{"/tmp/rw/", "/tmp/ro/rw-inside", "/tmp/both", "/tmp/a-b", "/tmp/a/c", "/dev/null"},
	}
	want := []tmpPath{{"/tmp/a-b", true}, {"/tmp/both", true}, {"/tmp/ro", false}, {"/tmp/rw", true}, {"/tmp/a/c", true}, {"/tmp/ro/rw-inside", true}}
	if got := tmpPaths(p); !slices.Equal(got, want) {
		t.Fatalf("tmpPaths:\n got %v\nwant %v", got, want)
	}
}
