package keys

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestEncodeNames(t *testing.T) {
	cases := []struct {
		name      string
		normal    string
		appCursor string // "" means the same as normal
	}{
		{"Enter", "\r", ""},
		{"enter", "\r", ""},
		{"RETURN", "\r", ""},
		{"Tab", "\t", ""},
		{"Backspace", "\x7f", ""},
		{"Escape", "\x1b", ""},
		{"Esc", "\x1b", ""},
		{"Space", " ", ""},
		{"BackTab", "\x1b[Z", ""},
		{"S-Tab", "\x1b[Z", ""},
		{"Up", "\x1b[A", "\x1bOA"},
		{"Down", "\x1b[B", "\x1bOB"},
		{"Right", "\x1b[C", "\x1bOC"},
		{"Left", "\x1b[D", "\x1bOD"},
		{"Home", "\x1b[H", "\x1bOH"},
		{"End", "\x1b[F", "\x1bOF"},
		{"Insert", "\x1b[2~", ""},
		{"Delete", "\x1b[3~", ""},
		{"PageUp", "\x1b[5~", ""},
		{"Page_Up", "\x1b[5~", ""},
		{"PageDown", "\x1b[6~", ""},
		{"PgDn", "\x1b[6~", ""},
		{"F1", "\x1bOP", ""},
		{"F2", "\x1bOQ", ""},
		{"F3", "\x1bOR", ""},
		{"F4", "\x1bOS", ""},
		{"F5", "\x1b[15~", ""},
		{"F6", "\x1b[17~", ""},
		{"F7", "\x1b[18~", ""},
		{"F8", "\x1b[19~", ""},
		{"F9", "\x1b[20~", ""},
		{"F10", "\x1b[21~", ""},
		{"F11", "\x1b[23~", ""},
		{"F12", "\x1b[24~", ""},
		{"a", "a", ""},
		{"Z", "Z", ""},
		{":", ":", ""},
		{"é", "é", ""},
		{"C-c", "\x03", ""},
		{"C-C", "\x03", ""},
		{"Ctrl-a", "\x01", ""},
		{"Ctrl+d", "\x04", ""},
		{"control-z", "\x1a", ""},
		{"C-@", "\x00", ""},
		{"C-Space", "\x00", ""},
		{"C-[", "\x1b", ""},
		{"C-\\", "\x1c", ""},
		{"C-]", "\x1d", ""},
		{"C-^", "\x1e", ""},
		{"C-_", "\x1f", ""},
		{"C-?", "\x7f", ""},
		{"C-Backspace", "\x08", ""},
		{"M-x", "\x1bx", ""},
		{"M-X", "\x1bX", ""},
		{"Alt-f", "\x1bf", ""},
		{"Alt+b", "\x1bb", ""},
		{"M-Enter", "\x1b\r", ""},
		{"M--", "\x1b-", ""},
		{"C-M-x", "\x1b\x18", ""},
		{"M-C-x", "\x1b\x18", ""},
		{"S-a", "A", ""},
		{"C-Up", "\x1b[1;5A", ""},
		{"S-Up", "\x1b[1;2A", ""},
		{"M-Left", "\x1b[1;3D", ""},
		{"C-S-Right", "\x1b[1;6C", ""},
		{"C-Delete", "\x1b[3;5~", ""},
		{"S-F1", "\x1b[1;2P", ""},
		{"C-F5", "\x1b[15;5~", ""},
		{"C-", "", "!"}, // a lone prefix is not a key: see TestEncodeErrors
	}
	for _, c := range cases {
		if c.appCursor == "!" {
			continue
		}
		for _, app := range []bool{false, true} {
			want := c.normal
			if app && c.appCursor != "" {
				want = c.appCursor
			}
			got, err := Encode([]string{c.name}, app)
			if err != nil {
				t.Errorf("Encode(%q, %v): %v", c.name, app, err)
				continue
			}
			if string(got) != want {
				t.Errorf("Encode(%q, %v) = %q, want %q", c.name, app, got, want)
			}
		}
	}
}

func TestEncodeSequence(t *testing.T) {
	got, err := Encode([]string{"i", "h", "i", "Escape", ":", "w", "q", "Enter"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "ihi\x1b:wq\r" {
		t.Fatalf("got %q", got)
	}
	got, err = Encode(nil, true)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty list: %q, %v", got, err)
	}
}

func TestEncodeErrors(t *testing.T) {
	for _, name := range []string{"", "Foo", "C-", "F13", "C-Enter", "S-Enter", "C-Tab", "S-1", "C-é", "Hyper-x", "\xff"} {
		_, err := Encode([]string{"Enter", name}, false)
		if err == nil {
			t.Errorf("Encode(%q): no error", name)
			continue
		}
		if !errors.Is(err, core.ErrInvalidArgument) {
			t.Errorf("Encode(%q): %v is not INVALID_ARGUMENT", name, err)
		}
		var ke *KeyError
		if !errors.As(err, &ke) {
			t.Errorf("Encode(%q): %v wraps no *KeyError", name, err)
			continue
		}
		if ke.Name != name || ke.Index != 1 {
			t.Errorf("Encode(%q): KeyError %+v", name, ke)
		}
		if !strings.Contains(err.Error(), "keys[1]") || !strings.Contains(err.Error(), strconv.Quote(name)) {
			t.Errorf("Encode(%q): message %q does not name the key", name, err)
		}
	}
}

// A refused key name is quoted cut short: a 100 KB name came back whole.
func TestKeyErrorQuotesTheNameBriefly(t *testing.T) {
	_, err := Encode([]string{"C-" + strings.Repeat("z", 100_000)}, false)
	if err == nil || len(err.Error()) > 1024 {
		t.Fatalf("error of %d bytes: %.200v", len(err.Error()), err)
	}
}

func TestDependsOnCursorMode(t *testing.T) {
	if DependsOnCursorMode([]string{"a", "Enter", "C-Up", "F1", "PageDown"}) {
		t.Error("no cursor key, yet it depends on the mode")
	}
	for _, k := range []string{"Up", "Left", "Home", "End"} {
		if !DependsOnCursorMode([]string{"x", k}) {
			t.Errorf("%s does not depend on the mode", k)
		}
	}
	if DependsOnCursorMode([]string{"Bogus"}) {
		t.Error("a bad name depends on the mode")
	}
}

func TestKnownAllEncode(t *testing.T) {
	k := Known()
	if len(k) < 28 {
		t.Fatalf("Known lists %d names", len(k))
	}
	if _, err := Encode(k, false); err != nil {
		t.Fatal(err)
	}
}
