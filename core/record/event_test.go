package record

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// An event longer than one encoding step is written as one line that
// decodes to its data: the steps never split a character.
func TestLongEventKeepsItsCharacters(t *testing.T) {
	var file bytes.Buffer
	x := &rec{w: &file, start: time.Now(), max: 1 << 40}
	data := "xxxxx" + strings.Repeat("é中\x1b[0m", 3*encodeBytes/8)
	x.event(x.start, "o", []byte("ab"), []byte(data))
	if x.flush(); x.err != nil {
		t.Fatal(x.err)
	}
	var ev []any
	if err := json.Unmarshal(bytes.TrimSuffix(file.Bytes(), []byte("\n")), &ev); err != nil {
		t.Fatal(err)
	}
	if got, _ := ev[2].(string); got != "ab"+data {
		t.Fatalf("decoded %d bytes, want %d; first difference at %d", len(got), len(data)+2, firstDiff(got, "ab"+data))
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// Output that reaches the size limit in one event (a large batch, as a
// loaded machine gathers) is recorded up to the limit, cut before a
// character, then the limit's marker: the recording is not left with the
// marker alone.
func TestEventPastTheLimitRecordsWhatFits(t *testing.T) {
	const limit = 64 << 10
	var file bytes.Buffer
	x := &rec{w: &file, start: time.Now(), max: limit}
	data := strings.Repeat("é-line\r\n", maxEvent/16)
	x.text([]byte(data), x.start)
	if x.flush(); x.err != nil {
		t.Fatal(x.err)
	}
	if file.Len() > limit {
		t.Fatalf("the recording holds %d bytes, want at most %d", file.Len(), limit)
	}
	lines := strings.Split(strings.TrimSuffix(file.String(), "\n"), "\n")
	var got strings.Builder
	for _, l := range lines[:len(lines)-1] {
		var ev []any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		s, _ := ev[2].(string)
		got.WriteString(s)
	}
	if !strings.Contains(lines[len(lines)-1], "size limit") {
		t.Fatalf("the recording ends with %q, want the size limit's marker", lines[len(lines)-1])
	}
	if got.Len() < limit/8 || !strings.HasPrefix(data, got.String()) {
		t.Fatalf("recorded %d bytes before the marker, want a prefix of the output of at least %d", got.Len(), limit/8)
	}
}

// An event at the output's current offset does not hide the next one: each
// is written where it happened, between the bytes around it.
func TestEventsAreWrittenAtTheirOffsets(t *testing.T) {
	var file bytes.Buffer
	x := &rec{w: &file, start: time.Now(), max: 1 << 40}
	r := &Recorder{recs: map[core.SessionID]*rec{"s-1": x}}
	for _, off := range []uint64{0, 3, 3, 7} {
		r.OnEvent(core.Event{Kind: core.EventSettled, Session: "s-1", Offset: off, WaitReason: core.WaitReason("at-" + strconv.Itoa(int(off))), Time: x.start})
	}
	x.output([]byte("abcdefghij"), x.start)
	if x.flush(); x.err != nil {
		t.Fatal(x.err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(file.String()), "\n") {
		var ev []any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		got = append(got, ev[2].(string))
	}
	if want := "at-0 abc at-3 at-3 defg at-7 hij"; strings.Join(got, " ") != want {
		t.Fatalf("written %q, want %q", strings.Join(got, " "), want)
	}
}
