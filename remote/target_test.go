package remote_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// A request takes the target's shell, directory and size only where it
// has none, and its environment comes after TERM and the target's.
func TestTargetDefaultsApply(t *testing.T) {
	d := remote.TargetDefaults{Shell: []string{"/bin/sh"}, Term: "xterm", Env: []string{"A=1"}, Dir: "/work"}
	got := d.Apply(core.BackendRequest{Env: []string{"A=2"}, Size: core.Size{Rows: 10}, Marker: "m"})
	want := core.BackendRequest{Command: []string{"/bin/sh"}, Env: []string{"TERM=xterm", "A=1", "A=2"},
		Dir: "/work", Size: core.DefaultSize, Marker: "m"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Apply = %+v, want %+v", got, want)
	}
	own := core.BackendRequest{Command: []string{"top"}, Dir: "/tmp", Size: core.Size{Rows: 5, Cols: 6}}
	got = d.Apply(own)
	if !reflect.DeepEqual(got.Command, own.Command) || got.Dir != own.Dir || got.Size != own.Size {
		t.Errorf("Apply replaced the request's own settings: %+v", got)
	}
}

// A place is refused only when an allowlist is set and does not name it.
func TestCheckAllowed(t *testing.T) {
	kind := errors.New("not allowed")
	for _, tc := range []struct {
		name    string
		allowed []string
		refused bool
	}{
		{"", []string{"a"}, false},
		{"b", nil, false},
		{"a", []string{"a"}, false},
		{"b", []string{"a"}, true},
	} {
		err := remote.CheckAllowed(kind, "image", tc.name, tc.allowed)
		if (err != nil) != tc.refused {
			t.Errorf("%q in %v: %v", tc.name, tc.allowed, err)
			continue
		}
		if err != nil && (!errors.Is(err, kind) || core.CodeOf(err) != core.CodeInvalidArgument) {
			t.Errorf("%q: %v should match the kind and be INVALID_ARGUMENT", tc.name, err)
		}
	}
}
