//go:build unix

package jobs

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestFinishedPipeJobLeavesNoBackgroundChild runs a pipe job whose program
// leaves a background child behind and exits: once the job is finished
// the child is gone (its process group was hung up, as a terminal hangs
// up its foreground group when its shell exits), and the job's output is
// still readable. A PTY job behaves the same.
func TestFinishedPipeJobLeavesNoBackgroundChild(t *testing.T) {
	for _, b := range []BackendChoice{BackendPipe, BackendPTY} {
		t.Run(string(b), func(t *testing.T) { finishedJobLeavesNoBackgroundChild(t, b) })
	}
}

func finishedJobLeavesNoBackgroundChild(t *testing.T, backend BackendChoice) {
	f := newFixture(t, Config{Backend: backend})
	in := f.launch(t, sh(`sleep 300 & echo "started $!"`))
	f.waitEnded(t, in.ID)
	res, err := f.m.Read(f.owner, in.ID, ReadRequest{Pattern: `^started \d+$`})
	if err != nil || len(res.Lines) != 1 {
		t.Fatalf("read: %+v %v", res, err)
	}
	child, err := strconv.Atoi(regexp.MustCompile(`\d+`).FindString(res.Lines[0].Text))
	if err != nil {
		t.Fatal(err)
	}
	f.pids = append(f.pids, child)
	deadline := time.Now().Add(testenv.HangBound)
	for !goneOrZombie(child) {
		if time.Now().After(deadline) {
			t.Fatalf("background child %d of the finished job still runs", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
	res, err = f.m.Read(f.owner, in.ID, ReadRequest{Limit: 50})
	if err != nil || len(res.Lines) == 0 || !strings.HasPrefix(res.Lines[0].Text, "started") {
		t.Fatalf("read after the hang-up: %+v %v", res, err)
	}
}
