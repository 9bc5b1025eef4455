package jobtools

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestReadTrimsTrailingBlanks: bg_read returns a job's padded lines (a
// table, a progress line) without their trailing blanks.
func TestReadTrimsTrailingBlanks(t *testing.T) {
	f := newFixture(t)
	job := f.mustCall(ToolLaunch, `{"command":"sh","args":["-c","printf 'a|%30s\\nb|%30s\\n' '' ''"]}`).Structured.(LaunchOut)
	var read ReadOut
	var text string
	for deadline := time.Now().Add(testenv.HangBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		res := f.mustCall(ToolRead, `{"id":"`+job.ID+`","from":0}`)
		read, text = res.Structured.(ReadOut), res.Text
		if len(read.Lines) == 2 {
			break
		}
	}
	if len(read.Lines) != 2 || read.Lines[0].Text != "a|" || read.Lines[1].Text != "b|" {
		t.Fatalf("read %+v", read)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(l, " ") {
			t.Fatalf("line %q of %q ends in blanks", l, text)
		}
	}
}
