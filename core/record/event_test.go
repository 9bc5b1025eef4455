package record

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
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
