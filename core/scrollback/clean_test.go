package scrollback

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// lines writes s to a fresh buffer and returns every line it shows.
func lines(t *testing.T, l Limits, s string) ([]string, *Buffer) {
	t.Helper()
	b := New(l)
	b.Write([]byte(s))
	return everything(b).Lines, b
}

func TestCleaning(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"plain", "hello\nworld\n", []string{"hello", "world"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"partial line", "a\nprompt> ", []string{"a", "prompt> "}},
		// Readline clears a line with blanks where the terminal has no
		// erase (no terminfo in a container), then redraws the prompt:
		// the blanks after the prompt are nothing a screen shows.
		{"partial line cleared with blanks", "a\n/# " + strings.Repeat(" ", 40) + "\r/# ", []string{"a", "/# "}},
		{"marked partial line cleared with blanks", "hi\r\n\x1b]133;D;0\x07\x1b]133;A\x07/# \x1b]133;B\x07" + strings.Repeat(" ", 40) + "\r\x1b]133;A\x07/# \x1b]133;B\x07", []string{"hi", "/# "}},
		{"partial line keeps text after blanks", "a\n$ " + strings.Repeat(" ", 4) + "x   \r$ ", []string{"a", "$     x"}},
		{"padded lines", "top   \nrow 1     \x1b[K\n\x1b[1mrow 2\x1b[m    \r\n    \nmid  x \t\n", []string{"top", "row 1", "row 2", "", "mid  x \t"}},
		{"padded edited line", "abc   \rxy\n", []string{"xyc"}},
		{"empty lines", "\n\nx\n", []string{"", "", "x"}},
		{"trailing blank lines held", "x\n\n\n", []string{"x"}},
		{"csi colors", "\x1b[1;31mred\x1b[0m\n", []string{"red"}},
		{"csi private", "\x1b[?2004h\x1b[?25lx\x1b[?25h\n", []string{"x"}},
		{"csi cursor position ignored", "a\x1b[12;40Hb\n", []string{"ab"}},
		{"csi forward leaves blanks", "ab\x1b[3Cc\n", []string{"ab   c"}},
		{"csi forward over text", "abcd\r\x1b[2CX\n", []string{"abXd"}},
		{"csi back overwrites", "In [1]: \x1b[8DIn [1]: x\n", []string{"In [1]: x"}},
		{"csi back past start", "ab\x1b[9Dx\n", []string{"xb"}},
		{"csi back over blanks", "ab\x1b[2K\x1b[1Dx\n", []string{" x"}},
		{"csi delete characters", "echo one two three\x1b[5D\b\x1b[Pthree\n", []string{"echo one twothree"}},
		{"csi delete past the end", "abc\b\x1b[9P\n", []string{"ab"}},
		{"csi insert blanks", "abc\b\b\x1b[2@X\n", []string{"aX bc"}},
		{"csi insert at the end", "abc\x1b[2@X\n", []string{"abcX"}},
		{"csi erase characters", "abcdef\r\x1b[2X\n", []string{"  cdef"}},
		{"csi erase the rest", "abcdef\b\b\x1b[5Xz\n", []string{"abcdz"}},
		{"alternate screen dropped", "$ vim\n\x1b[?1049h\x1b[H~\n~\n\x1b[5;1Hx\x1b[?1049l$ ", []string{"$ vim", "$ "}},
		{"alternate screen among modes", "a\x1b[?1;1047hb\nc\x1b[?1047l\n", []string{"a"}},
		{"alternate screen left by a reset", "\x1b[?1049hjunk\x1bcok\n", []string{"ok"}},
		{"alternate screen left by the prompt", "\x1b[?1049h0950\x1b]133;D;130\a\x1b]133;A\a$ ", []string{"$ "}},
		{"mode 1049 not private", "\x1b[1049hok\n", []string{"ok"}},
		{"csi column", "abcdef\x1b[3GX\n", []string{"abXdef"}},
		{"csi J erases the rest", "abcdef\x1b[3D\x1b[J\n", []string{"abc"}},
		{"csi move with modifiers ignored", "abc\x1b[1;5Dx\n", []string{"abcx"}},
		{"csi up over text ignored", "a\nb\x1b[Ac\n", []string{"a", "bc"}},
		{"csi up takes back blank lines", "\n\n\x1b[Ax\n", []string{"", "x"}},
		// prompt_toolkit (IPython) reserves rows below its prompt, moves
		// back up, and redraws the prompt with the input.
		{"reserved rows", "In [1]: \r\r\n\r\r\n\r\r\n \b\x1b[3A\x1b[8C\x1b[8D\x1b[JIn [1]: x = 1\x1b[13D\r\r\n", []string{"In [1]: x = 1"}},
		{"progress line rewritten from below", "get 10%\n\x1b[Aget 100%\n", []string{"get 100%"}},
		{"move up two rows over text ignored", "a\nb\n\x1b[2Ac\n", []string{"a", "b", "c"}},
		// Python's REPL (3.13) redraws a block line by line: a newline
		// and a move up reserve the row below, a move back and a move
		// down go to it.
		{"block redrawn row by row", ">>> \n\x1b[1A>>> def f():\x1b[12D\x1b[1B... \x1b[4D\n\x1b[1A...     return 1\x1b[16D\x1b[1B... \x1b[4D\n\r\x1b[1A\n>>> ", []string{">>> def f():", "...     return 1", "...", ">>> "}},
		// prompt_toolkit redraws an input of several rows: to its first
		// row, erase below, draw it all again.
		{"input of several rows redrawn", "In [1]: a\r\r\n   ...:   b\r\r\n   ...:\x1b[7D\x1b[2A\x1b[JIn [1]: a\r\r\n   ...:   b\r\r\n   ...:   c\r\r\n", []string{"In [1]: a", "   ...:   b", "   ...:   c"}},
		{"move up then text, then erase below", "a\nb\x1b[Ac\x1b[J\n", []string{"a", "bc"}},
		{"move up into held blank rows, erase below", "x\n\n\n\x1b[2A\x1b[Jy\n", []string{"x", "y"}},
		{"move down with no row left below ignored", "ab\x1b[Bc\n\x1b[2Bd\n", []string{"abc", "d"}},
		{"move down two rows left blank", "x\n\n\n\x1b[2Ay\x1b[2Bz\n", []string{"x", "y", "", " z"}},
		{"csi with C0 inside", "a\x1b[3\bmb\n", []string{"b"}},
		{"osc bel", "\x1b]0;user@host: ~\x07$ \n", []string{"$"}},
		{"osc st", "\x1b]2;title\x1b\\$ \n", []string{"$"}},
		{"osc unicode payload", "\x1b]0;tïtle\x07ok\n", []string{"ok"}},
		{"dcs", "a\x1bPq#0;2;0;0;0#0~~@@\x1b\\b\n", []string{"ab"}},
		{"sos pm apc", "\x1bXsos\x1b\\\x1b^pm\x1b\\\x1b_apc\x07still\x1b\\x\n", []string{"x"}},
		{"charsets", "\x1b(Ba\x1b)0b\x1b#8c\x1b%Gd\n", []string{"abcd"}},
		{"two-byte esc", "\x1b7a\x1b8b\x1b=c\x1b>d\x1bMe\n", []string{"abcde"}},
		{"esc restarts", "\x1b\x1b[31mx\n", []string{"x"}},
		{"can aborts", "\x1b[31\x18x\n", []string{"x"}},
		{"esc then utf8", "\x1b\u00e9x\n", []string{"\u00e9x"}},
		{"cr overwrite", "abcdef\r12", []string{"12cdef"}},
		{"progress", "50%\r100%\n", []string{"100%"}},
		{"progress many", "1%\r2%\r3%\r10%\r100%\r\n", []string{"100%"}},
		{"cr then longer", "ab\rwxyz\n", []string{"wxyz"}},
		{"cr at end", "abc\r", []string{"abc"}},
		{"backspace", "abc\bX\n", []string{"abX"}},
		{"backspace past start", "a\b\b\bX\n", []string{"X"}},
		{"backspace rune", "a\u00e9\bX\n", []string{"aX"}},
		{"readline erase", "abc\b \b\n", []string{"ab"}},
		{"tab", "a\tb\n", []string{"a\tb"}},
		{"csi K", "abcdef\r12\x1b[K\n", []string{"12"}},
		{"csi 0K", "abcdef\b\b\x1b[0K\n", []string{"abcd"}},
		{"csi 2K keeps column", "abc\x1b[2Kx\n", []string{"   x"}},
		{"csi 2K then cr", "abc\x1b[2K\rx\n", []string{"x"}},
		{"csi 2K alone", "abc\x1b[2K", nil},
		{"csi 2K newline", "abc\x1b[2K\nx\n", []string{"", "x"}},
		{"csi 2K backspace", "abc\x1b[2K\bx\n", []string{"  x"}},
		{"csi other K ignored", "abc\b\x1b[1K\x1b[?K\n", []string{"abc"}},
		{"c0 dropped", "a\x00b\x07c\x01d\x7fe\x0ef\n", []string{"abcdef"}},
		{"overwrite multibyte", "\u00e9\u00e9\u00e9\rab\n", []string{"ab\u00e9"}},
		{"multibyte over ascii", "abc\r\u4e16\n", []string{"\u4e16bc"}},
		{"emoji", "\U0001F642 ok\n", []string{"\U0001F642 ok"}},
		{"invalid byte", "a\xffb\n", []string{"a\ufffdb"}},
		{"truncated sequence", "a\xe2\x82b\n", []string{"a\ufffd\ufffdb"}},
		{"lone continuation", "\x80\x80\n", []string{"\ufffd\ufffd"}},
		{"c1 csi byte is text", "\x9b31mx\n", []string{"\ufffd31mx"}},
		{"incomplete rune waits", "ab\xe2\x82", []string{"ab"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := lines(t, Limits{}, c.in)
			if !slices.Equal(got, c.want) {
				t.Fatalf("%q: got %q, want %q", c.in, got, c.want)
			}
			for _, l := range got {
				if !utf8.ValidString(l) {
					t.Fatalf("invalid UTF-8 in %q", l)
				}
			}
		})
	}
}

func TestInvalidUTF8Counted(t *testing.T) {
	_, b := lines(t, Limits{}, "a\xffb\xe2\x82c\xc3")
	if got := b.Stats().InvalidUTF8; got != 3 {
		t.Fatalf("InvalidUTF8 = %d, want 3 (the trailing \\xc3 still waits)", got)
	}
	b.Write([]byte("\xa9\n"))
	if got := everything(b).Lines; !slices.Equal(got, []string{"a\ufffdb\ufffd\ufffdc\u00e9"}) {
		t.Fatalf("lines %q", got)
	}
}

func TestSplitWrites(t *testing.T) {
	// Every sequence split at every byte gives the whole-write result.
	inputs := []string{
		"\x1b]133;D;42\x1b\\x\u00e9\U0001F642\r\n",
		"\x1bPq#0\x1b\\ab\x1b[2Kc\x1b[31md\r\n",
		"abc\r\x1b[Kx\xe2\x82\xac\xff",
	}
	for _, in := range inputs {
		want, wb := lines(t, Limits{}, in)
		for i := 0; i <= len(in); i++ {
			b := New(Limits{})
			b.Write([]byte(in[:i]))
			b.Write([]byte(in[i:]))
			if got := everything(b).Lines; !slices.Equal(got, want) || b.Marks() != wb.Marks() || b.Stats() != wb.Stats() {
				t.Fatalf("%q split at %d: %q %+v, want %q %+v", in, i, got, b.Stats(), want, wb.Stats())
			}
		}
	}
}

func TestLongLineKeepsTail(t *testing.T) {
	l := Limits{MaxLineBytes: 10}
	got, b := lines(t, l, "0123456789abcdef\n")
	if !slices.Equal(got, []string{"6789abcdef"}) || b.Stats().CutBytes != 6 {
		t.Fatalf("got %q cut %d", got, b.Stats().CutBytes)
	}
	// A cut never splits a rune: 4 x 3-byte runes in 10 bytes keeps 3.
	got, b = lines(t, l, strings.Repeat("\u4e16", 4)+"\n")
	if !slices.Equal(got, []string{strings.Repeat("\u4e16", 3)}) || b.Stats().CutBytes != 3 {
		t.Fatalf("got %q cut %d", got, b.Stats().CutBytes)
	}
	// The current line is bounded too, however long it grows.
	b = New(l)
	for range 1000 {
		b.Write([]byte("xxxxxxx\u00e9"))
	}
	if pg := everything(b); len(pg.Lines) != 1 || len(pg.Lines[0]) > 10 || !strings.HasSuffix(pg.Lines[0], "x\u00e9") {
		t.Fatalf("partial line %q", pg.Lines)
	}
	if st := b.Stats(); st.Bytes > 10 || st.CutBytes != 9000-int64(st.Bytes) {
		t.Fatalf("stats %+v", st)
	}
}

func TestMarkers(t *testing.T) {
	cases := []struct {
		in   string
		want Marks
	}{
		{"", Marks{}},
		{"out\n", Marks{TextSincePromptEnd: 4}},
		{"\x1b]133;A\x07$ \x1b]133;B\x07", Marks{PromptEnds: 1}},
		{"\x1b]133;B\x1b\\ls\r\n", Marks{PromptEnds: 1, TextSincePromptEnd: 3}},
		{"\x1b]133;B\x07\x1b[31m\x1b]0;t\x07", Marks{PromptEnds: 1}},
		{"\x1b]133;B\x07ab\rcd", Marks{PromptEnds: 1, TextSincePromptEnd: 4}},
		{"\x1b]133;B\x07\u00e9", Marks{PromptEnds: 1, TextSincePromptEnd: 2}},
		{"\x1b]133;D\x07", Marks{CommandEnds: 1}},
		{"\x1b]133;D;0\x07", Marks{CommandEnds: 1, LastExitValid: true}},
		{"\x1b]133;D;130;aid=7\x1b\\", Marks{CommandEnds: 1, LastExitCode: 130, LastExitValid: true}},
		{"\x1b]133;D;2\x07\x1b]133;D\x07", Marks{CommandEnds: 2}},
		{"\x1b]133;D;x\x07", Marks{CommandEnds: 1}},
		{"\x1b]133;D;-1\x07", Marks{CommandEnds: 1, LastExitCode: -1, LastExitValid: true}},
		{"\x1b]133;D;1;line=7;inq=1\x07", Marks{CommandEnds: 1, LastExitCode: 1, LastExitValid: true, InputLine: 7, InputLineValid: true, InputPending: true}},
		{"\x1b]133;D;0;inq=0;line=3\x07", Marks{CommandEnds: 1, LastExitValid: true, InputLine: 3, InputLineValid: true}},
		{"\x1b]133;D;0;line=3\x07\x1b]133;D;0\x07", Marks{CommandEnds: 2, LastExitValid: true}},
		{"\x1b]133;D;0;line=-2;line=x;inq=2\x07", Marks{CommandEnds: 1, LastExitValid: true}},
		{"\x1b]133;D;;line=4\x07", Marks{CommandEnds: 1, InputLine: 4, InputLineValid: true}},
		{"\x1b]133;BB\x07\x1b]1339;B\x07\x1b]133;\x07", Marks{}},
		{"\x1b]133;B\x18\x1b]133;B\x07", Marks{PromptEnds: 1}},
		{"\x1b]133;B;k=v\x07x\x1b]133;B\x07", Marks{PromptEnds: 2}},
		{"\x1b]133;B" + strings.Repeat("x", 5000) + "\x07", Marks{}},
		// A continuation prompt (PS2) is pending until the next prompt end.
		{"\x1b]133;B\x07echo \"a\r\n\x1b]133;P;k=s\x07> ", Marks{PromptEnds: 1, TextSincePromptEnd: 10, Continuations: 1, ContinuationPending: true}},
		{"\x1b]133;P;k=s\x07> b\"\r\n\x1b]133;A\x07$ \x1b]133;B\x07", Marks{PromptEnds: 1, Continuations: 1}},
		{"\x1b]133;P\x07\x1b]133;Px\x07", Marks{Continuations: 1, ContinuationPending: true}},
	}
	for _, c := range cases {
		_, b := lines(t, Limits{}, c.in)
		if b.Marks() != c.want {
			t.Errorf("%.40q: marks %+v, want %+v", c.in, b.Marks(), c.want)
		}
	}
}

// TestBlankLinesHeldAreBounded: a flood of newlines is stored as it comes
// beyond the rows a reservation can have, and every blank line shows
// once text follows.
func TestBlankLinesHeldAreBounded(t *testing.T) {
	b := New(Limits{})
	b.Write([]byte(strings.Repeat("\n", 600)))
	if got := b.Total(); got != 600-maxHeld {
		t.Fatalf("lines stored before text: %d, want %d", got, 600-maxHeld)
	}
	b.Write([]byte("x\n"))
	got := everything(b).Lines
	if len(got) != 601 || got[600] != "x" || strings.Join(got[:600], "") != "" {
		t.Fatalf("%d lines, last %q", len(got), got[len(got)-1])
	}
}
