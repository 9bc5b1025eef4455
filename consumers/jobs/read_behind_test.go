//go:build unix

package jobs

import (
	"fmt"
	"testing"
)

// TestReadFromFarBehind: a read from a line more than a page older than
// the oldest one kept returns the oldest kept lines and counts the dropped
// ones, instead of an empty page that says there is more.
func TestReadFromFarBehind(t *testing.T) {
	f := newFixture(t, Config{BufferCapacity: 100, Backend: BackendPipe})
	in := f.launch(t, sh(`i=0; while [ $i -lt 2500 ]; do echo "line $i"; i=$((i+1)); done`))
	f.waitEnded(t, in.ID)
	for _, from := range []int64{0, 1, 1399, 2399} {
		res, err := f.m.Read(f.owner, in.ID, ReadRequest{From: &from, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Lines) != 10 || res.Lines[0].N != 2400 || res.Lines[0].Text != "line 2400" ||
			res.Dropped != 2400-from || !res.Truncated || res.Next != 2410 || !res.More {
			t.Fatalf("from %d: %s", from, summary(res))
		}
	}
	from := int64(2405)
	if res, _ := f.m.Read(f.owner, in.ID, ReadRequest{From: &from, Limit: 1}); res.Dropped != 0 || res.Lines[0].Text != fmt.Sprint("line ", from) {
		t.Fatalf("from a kept line: %s", summary(res))
	}
}
