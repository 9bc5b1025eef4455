//go:build unix

package jobs

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestDisposeOwnerForgetsOnlyThatOwnersJobs(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPipe})
	mine := f.launch(t, sh("sleep 100"))
	other := core.NewOwner("other")
	theirs, err := f.m.Launch(t.Context(), other, sh("sleep 100"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.m.DisposeOwner(t.Context(), f.owner); err != nil {
		t.Fatal(err)
	}
	if list, _ := f.m.List(f.owner, ListFilter{}); len(list) != 0 {
		t.Fatalf("the disposed owner still has %d jobs", len(list))
	}
	if _, err := f.m.Get(f.owner, mine.ID); err == nil {
		t.Fatalf("a disposed owner's job is still there")
	}
	if info, err := f.m.Get(other, theirs.ID); err != nil || info.State != StateRunning {
		t.Fatalf("another owner's job was touched: %+v %v", info, err)
	}
	if err := f.m.DisposeOwner(t.Context(), nil); err == nil {
		t.Fatalf("a nil owner was accepted")
	}
}
