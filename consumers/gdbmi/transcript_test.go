package gdbmi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// transcripts returns the recorded gdb transcripts in testdata/transcripts
// (made by testdata/record_transcripts.py from a real gdb 13.1 on a PTY).
func transcripts(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "transcripts", "*.mi"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	out := make(map[string][]byte)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".mi")] = b
	}
	return out
}

func frameAll(data []byte) []Line {
	var f Framer
	lines := f.Feed(nil, data)
	return f.Flush(lines)
}

// TestTranscriptsParse checks that every line gdb printed parses, except the
// terminal's echo of commands in the transcript recorded with echo on, and
// that rendering each record back and parsing it again gives the same
// record.
func TestTranscriptsParse(t *testing.T) {
	for name, data := range transcripts(t) {
		t.Run(name, func(t *testing.T) {
			lines := frameAll(data)
			if len(lines) < 10 {
				t.Fatalf("only %d lines", len(lines))
			}
			var prompts, echoes int
			for _, l := range lines {
				if l.Err != nil {
					if name == "loop_echo" && strings.Contains(l.Text, "-") && l.Text[0] >= '0' && l.Text[0] <= '9' {
						echoes++
						continue
					}
					t.Errorf("line %d %q: %v", l.Num, l.Text, l.Err)
					continue
				}
				if l.Record.Type == RecordPrompt {
					prompts++
				}
				again, err := ParseLineString(l.Record.String())
				if err != nil {
					t.Errorf("line %d: reparse of %q: %v", l.Num, l.Record.String(), err)
					continue
				}
				if again.String() != l.Record.String() {
					t.Errorf("line %d: round trip changed the record:\n%s\n%s", l.Num, l.Record.String(), again.String())
				}
			}
			if prompts == 0 {
				t.Error("no prompts")
			}
			if name == "loop_echo" && echoes == 0 {
				t.Error("expected the echoed commands to be reported as non-MI lines")
			}
		})
	}
}
