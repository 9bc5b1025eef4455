package main

import (
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEveryPartOfAResultIsBounded: a full 100x1000 screen of two-byte
// characters and a 300 KB window title once made pty_screen's and
// pty_keys's structuredContent hundreds of kilobytes although
// --result-bytes bounded the text.
func TestEveryPartOfAResultIsBounded(t *testing.T) {
	const resultBytes = 16 << 10
	cs, _ := connect(t, defaultConfig(t, "--tools", "full", "--result-bytes", "16384"))
	opened, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	id := opened["sessionId"]
	if _, res := call(t, cs, "pty_resize", map[string]any{"id": id, "rows": 100, "cols": 1000}); res.IsError {
		t.Fatal(resultText(res))
	}
	script := `python3 -c "import sys; sys.stdout.write('\x1b]0;' + 'T'*300000 + '\x07' + ('\u00e9'*1000)*100); sys.stdout.flush(); input()"`
	if _, res := call(t, cs, "pty_send", map[string]any{"id": id, "data": script}); res.IsError {
		t.Fatal(resultText(res))
	}
	check := func(name string, args map[string]any) {
		t.Helper()
		_, res := call(t, cs, name, args)
		if res.IsError {
			t.Fatalf("%s: %s", name, resultText(res))
		}
		structured, _ := json.Marshal(res.StructuredContent)
		text := resultText(res)
		t.Logf("%s: text %d bytes, structuredContent %d bytes", name, len(text), len(structured))
		if len(text) > resultBytes || len(structured) > 2*resultBytes {
			t.Errorf("%s: text %d bytes, structuredContent %d bytes; bounds %d and %d", name, len(text), len(structured), resultBytes, 2*resultBytes)
		}
		var shape struct {
			Rows  []string `json:"rows"`
			Title string   `json:"title"`
		}
		_ = json.Unmarshal(structured, &shape)
		if name == "pty_screen" && len(shape.Rows) != 100 {
			t.Errorf("%s: %d rows, want all 100 (cut, not dropped)", name, len(shape.Rows))
		}
	}
	check("pty_screen", map[string]any{"id": id})
	check("pty_keys", map[string]any{"id": id, "text": "x"})
}

// TestATextResultIsCutOnce: a text result (the default form) holds its
// headline and the output cut by lines to fit --result-bytes together;
// the output was cut to the whole budget, and the headline then pushed
// the text over it, so a second cut through the middle of the text left
// a marker line in pieces.
func TestATextResultIsCutOnce(t *testing.T) {
	const resultBytes = 2048
	cfg, err := parseConfig([]string{"--result-bytes", strconv.Itoa(resultBytes)}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, cfg)
	_, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	id := regexp.MustCompile(`pty_[a-z0-9]+`).FindString(resultText(res))
	if res.IsError || id == "" {
		t.Fatalf("open: %s", resultText(res))
	}
	_, res = call(t, cs, "pty_send", map[string]any{"id": id,
		"data": "seq -f 'compiling unit %g of the project' 1 3000; echo 'main.go:12:5: undefined: frobnicate'; seq 3001 6000"})
	text := resultText(res)
	if res.IsError || len(text) > resultBytes {
		t.Fatalf("the send's text is %d bytes (bound %d): %s", len(text), resultBytes, text)
	}
	marker := regexp.MustCompile(`^\[\.\.\. lines \d+-\d+ cut \(\d+ lines\) \.\.\.\]$`)
	for _, line := range strings.Split(text, "\n")[1:] {
		if strings.HasPrefix(line, "[") && !marker.MatchString(line) || strings.Contains(line, "...]") && !marker.MatchString(line) {
			t.Fatalf("a line %q is not a whole cut marker:\n%s", line, text)
		}
	}
	if !strings.Contains(text, "\nmain.go:12:5: undefined: frobnicate\n") {
		t.Fatalf("the error line was cut:\n%s", text)
	}
}
