package promptmark

import (
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/internal/shellquote"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Marker
		ok   bool
	}{
		{"133;B", Marker{Kind: 'B'}, true},
		{"133;A", Marker{Kind: 'A'}, true},
		{"133;D", Marker{Kind: 'D'}, true},
		{"133;D;7", Marker{Kind: 'D', Exit: 7, ExitValid: true}, true},
		{"133;D;0;line=12;inq=1", Marker{Kind: 'D', ExitValid: true, Line: 12, LineValid: true, InputPending: true}, true},
		{"133;D;x;line=-1;inq=0;other=2", Marker{Kind: 'D'}, true},
		{"133;D;3;line=4;inq=0;pid=4242", Marker{Kind: 'D', Exit: 3, ExitValid: true, Line: 4, LineValid: true, Shell: 4242}, true},
		{"133;D;0;pid=0", Marker{Kind: 'D', ExitValid: true}, true},
		{"133;D;0;pid=-5;line=x", Marker{Kind: 'D', ExitValid: true}, true},
		{"133;Dx", Marker{}, false},
		{"133;", Marker{}, false},
		{"0;title", Marker{}, false},
	} {
		got, ok := Parse([]byte(c.in))
		if ok != c.ok || got != c.want {
			t.Errorf("Parse(%q) = %+v %v, want %+v %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// payload returns the OSC payload of a complete marker (ESC ] ... BEL).
func payload(marker string) []byte {
	return []byte(strings.TrimSuffix(strings.TrimPrefix(marker, "\x1b]"), "\x07"))
}

func TestEmittedMarkersParse(t *testing.T) {
	for marker, kind := range map[string]byte{PromptStart: 'A', PromptEnd: 'B', CommandEnd(3): 'D', ContinuationStart: 'P'} {
		m, ok := Parse(payload(marker))
		if !ok || m.Kind != kind {
			t.Errorf("%q parses as %+v %v", marker, m, ok)
		}
	}
	if m, _ := Parse(payload(CommandEnd(3))); !m.ExitValid || m.Exit != 3 {
		t.Errorf("CommandEnd(3) parses as %+v", m)
	}
	if !ContainsPromptEnd([]byte("x$ "+PromptEnd)) || ContainsPromptEnd([]byte(PromptStart+CommandEnd(0))) {
		t.Error("ContainsPromptEnd")
	}
}

// TestBashPrintsWhatParseReads runs bash with PS1 and PromptCommand and
// reads its markers back.
func TestBashPrintsWhatParseReads(t *testing.T) {
	script := "PS1=" + strconv.Quote(PS1) + "\nPROMPT_COMMAND=" + shellquote.Quote(PromptCommand) + "\nfalse\neval \"$PROMPT_COMMAND\"\n"
	out, err := exec.Command("bash", "--noprofile", "--norc", "-c", script).Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	i := bytes.Index(out, []byte("\x1b]"))
	j := bytes.IndexByte(out, '\x07')
	if i < 0 || j < i {
		t.Fatalf("no marker in %q", out)
	}
	m, ok := Parse(out[i+2 : j])
	if !ok || m.Kind != 'D' || !m.ExitValid || m.Exit != 1 || !m.LineValid {
		t.Fatalf("%q parses as %+v %v", out, m, ok)
	}
}

// TestBashPrintsTheContinuationMarker: bash with PS2 reading an
// incomplete command (an open quote) prints ContinuationStart before its
// "> ", which Parse reads as a continuation prompt.
func TestBashPrintsTheContinuationMarker(t *testing.T) {
	cmd := exec.Command("bash", "--noprofile", "--norc", "-i")
	cmd.Env = append(cmd.Environ(), "PS1="+PS1, "PS2="+PS2, "HISTFILE=")
	cmd.Stdin = strings.NewReader("echo \"a\nb\"\n")
	out, _ := cmd.CombinedOutput() // bash -i without a terminal complains on stderr; the prompts go there too
	i := bytes.Index(out, []byte(ContinuationStart))
	if i < 0 || !bytes.HasPrefix(out[i+len(ContinuationStart):], []byte("> ")) {
		t.Fatalf("no continuation marker before \"> \" in %q", out)
	}
	if m, ok := Parse(payload(ContinuationStart)); !ok || m.Kind != 'P' {
		t.Fatalf("ContinuationStart parses as %+v %v", m, ok)
	}
}

// FuzzParse: any payload parses without panicking; a marker is recognised
// exactly when the payload is 133;K with nothing or ';' after K, and
// only a D marker carries values.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"133;B", "133;D;0;line=3;inq=1", "133;D;-2", "133;Dx", "0;title", "133;D;1;line=99999999999999999999", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		m, ok := Parse(p)
		want := len(p) >= 5 && bytes.HasPrefix(p, []byte("133;")) && (len(p) == 5 || p[5] == ';')
		if ok != want {
			t.Fatalf("Parse(%q) ok = %v, want %v", p, ok, want)
		}
		if !ok {
			return
		}
		if m.Kind != p[4] {
			t.Fatalf("Parse(%q) kind %q", p, m.Kind)
		}
		if m.Kind != 'D' && (m.ExitValid || m.LineValid || m.InputPending) {
			t.Fatalf("Parse(%q) = %+v: options on a marker other than D", p, m)
		}
		if m.LineValid && m.Line < 0 {
			t.Fatalf("Parse(%q) negative line %d", p, m.Line)
		}
	})
}
