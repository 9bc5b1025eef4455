package ptysession

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// chunkPrinter is a python3 program that turns terminal echo off and
// prints "ready", then for every line it reads writes the next chunk of a
// JSON list and flushes; it exits after the last chunk.
const chunkPrinter = `
import sys, json, termios
fd = sys.stdin.fileno()
a = termios.tcgetattr(fd)
a[3] &= ~termios.ECHO
termios.tcsetattr(fd, termios.TCSANOW, a)
sys.stdout.write("ready\n")
sys.stdout.flush()
chunks = json.load(open(sys.argv[1], encoding="utf-8"))
out = sys.stdout.buffer
for c in chunks:
    sys.stdin.readline()
    out.write(c.encode("utf-8"))
    out.flush()
`

var alphabet = []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;-_=+()[]{}<>/'\"$%&*!?éüß日本語🙂")

// randomOutput returns random text of lines (some empty, some long, the
// last maybe unterminated) cut into random chunks at rune boundaries. No
// completed line ends in a blank: the scrollback trims those
// (TestPartialBlanksThenTrimmed in core/scrollback covers them).
func randomOutput(r *rand.Rand) (string, []string) {
	var b strings.Builder
	nlines := 1 + r.IntN(120)
	for i := range nlines {
		n := 0
		switch r.IntN(6) {
		case 0:
		case 1:
			n = 100 + r.IntN(300)
		default:
			n = r.IntN(40)
		}
		var line strings.Builder
		for range n {
			line.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		last := i == nlines-1 && r.IntN(2) == 0
		if last {
			b.WriteString(line.String())
		} else {
			b.WriteString(strings.TrimRight(line.String(), " "))
			b.WriteByte('\n')
		}
	}
	text := []rune(b.String())
	var chunks []string
	for len(text) > 0 {
		n := 1 + r.IntN(min(len(text), 1+r.IntN(400)))
		chunks = append(chunks, string(text[:n]))
		text = text[n:]
	}
	return b.String(), chunks
}

// tailChecker replays tails against the expected output.
type tailChecker struct {
	t       *testing.T
	want    string
	pos     int // bytes of want accounted for
	skipped int64
	truncs  int
}

func (c *tailChecker) check(tr TailResult, budget int) {
	c.t.Helper()
	text := tr.Text
	if strings.HasPrefix(text, "\r") {
		c.t.Fatalf("tail rewrote a line (%q) but the output has no carriage returns", text)
	}
	if tr.Lines > budget {
		c.t.Fatalf("tail of %d lines returned %d", budget, tr.Lines)
	}
	if tr.Lines != countLines(text) {
		c.t.Fatalf("Lines = %d for %q", tr.Lines, text)
	}
	if !tr.Truncated {
		if tr.Skipped != 0 {
			c.t.Fatalf("untruncated tail with skipped %d", tr.Skipped)
		}
		c.consume(text)
		return
	}
	c.truncs++
	lost := false
	if c.pos > 0 && c.want[c.pos-1] != '\n' {
		// The cursor was inside a line: its rest was lost and the tail
		// closes it with a newline.
		if !strings.HasPrefix(text, "\n") {
			c.t.Fatalf("truncated tail %q inside a line does not close it", text)
		}
		text = text[1:]
		c.pos = c.nextLine(c.pos)
		lost = true
	}
	for range tr.Skipped {
		c.pos = c.nextLine(c.pos)
	}
	if tr.Skipped == 0 && !lost {
		c.t.Fatalf("tail says truncated but skipped nothing: %q", tr.Text)
	}
	c.skipped += tr.Skipped
	c.consume(text)
}

func (c *tailChecker) nextLine(pos int) int {
	i := strings.IndexByte(c.want[pos:], '\n')
	if i < 0 {
		c.t.Fatalf("skipped past the end of the output")
	}
	return pos + i + 1
}

func (c *tailChecker) consume(text string) {
	c.t.Helper()
	if !strings.HasPrefix(c.want[c.pos:], text) {
		c.t.Fatalf("tail %q does not continue the output at byte %d: %q", text, c.pos, c.want[c.pos:min(len(c.want), c.pos+len(text)+20)])
	}
	c.pos += len(text)
}

// TestTailConcatenationProperty drives a real session that prints random
// output in random chunks and tails it at random points with random line
// budgets: the concatenated tails equal the output exactly, except where a
// tail says it was truncated, and then its skipped count is exact.
func TestTailConcatenationProperty(t *testing.T) {
	iterations := map[string]int{"service": 8, "registry": 3}
	if testing.Short() {
		iterations = map[string]int{"service": 2, "registry": 1}
	}
	forEachSeam(t, Options{Backend: "exec", MaxResultBytes: 1 << 20}, func(t *testing.T, s *Sessions) {
		seamName := t.Name()[strings.LastIndexByte(t.Name(), '/')+1:]
		ctx := testCtx(t)
		truncs := 0
		for it := range iterations[seamName] {
			r := rand.New(rand.NewPCG(uint64(it), 0x9e3779b97f4a7c15))
			want, chunks := randomOutput(r)
			path := filepath.Join(t.TempDir(), "chunks.json")
			b, _ := json.Marshal(chunks)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			owner := core.NewOwner("prop")
			o := mustOpen(t, s, owner, OpenRequest{Command: JoinCommand([]string{"python3", "-c", chunkPrinter, path})})
			if !strings.HasPrefix("ready\n", o.InitialOutput) {
				t.Fatalf("initial output %q before any chunk", o.InitialOutput)
			}
			want = "ready\n" + want
			c := &tailChecker{t: t, want: want}
			// Output is returned once: the open's output and each send's
			// delta count as given, like a tail of the largest budget.
			given := func(text string, truncated bool, skipped int64) {
				t.Helper()
				c.check(TailResult{OutputDelta: core.OutputDelta{Text: text, Truncated: truncated, Skipped: skipped}, Lines: countLines(text)}, MaxLines)
			}
			given(o.InitialOutput, o.Truncated, 0)
			tail := func(budget int) {
				t.Helper()
				tr, err := s.Tail(ctx, owner, o.SessionID, budget)
				if err != nil {
					t.Fatal(err)
				}
				c.check(tr, budget)
			}
			// Input typed before python turned echo off would be echoed:
			// wait for "ready" (a seam that settles on silence may return
			// from the open before python started).
			for range 1000 {
				if c.pos >= len("ready\n") {
					break
				}
				tail(1 + r.IntN(12))
				sleepBriefly()
			}
			for i := range chunks {
				var res SendResult
				if r.IntN(3) == 0 { // through the facade: the delta is given
					sent, err := s.Send(ctx, owner, o.SessionID, SendRequest{})
					if err != nil {
						t.Fatal(err)
					}
					given(sent.Delta, sent.Truncated, sent.Skipped)
					res = sent
				} else { // through the seam: the output waits for the tails
					op, err := s.t.Send(ctx, owner, o.SessionID, core.SendRequest{})
					if err != nil {
						t.Fatal(err)
					}
					sent, err := op.Wait(ctx)
					if err != nil {
						t.Fatal(err)
					}
					res = SendResult{SendResult: core.SendResult{WaitReason: sent.WaitReason, Status: sent.Status}}
				}
				if i == len(chunks)-1 {
					break
				}
				if res.WaitReason == core.WaitTimeout || res.Status.Exited() {
					t.Fatalf("chunk %d settled as %+v", i, res)
				}
				for range r.IntN(3) {
					tail(1 + r.IntN(12))
				}
			}
			waitExited(t, s, owner, o.SessionID)
			tail(1 + r.IntN(12))
			for range 3 {
				if c.pos == len(c.want) {
					break
				}
				tail(MaxLines)
			}
			if c.pos != len(c.want) {
				t.Fatalf("tails covered %d of %d bytes", c.pos, len(c.want))
			}
			if tr, err := s.Tail(ctx, owner, o.SessionID, 1); err != nil || tr.Text != "" || tr.Truncated {
				t.Fatalf("tail after everything was read: %+v %v", tr, err)
			}
			truncs += c.truncs
			if _, err := s.Close(ctx, owner, o.SessionID); err != nil {
				t.Fatal(err)
			}
		}
		if truncs == 0 {
			t.Fatalf("no tail was ever truncated: the test did not exercise skipping")
		}
	})
}
