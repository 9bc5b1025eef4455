package core

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// checkCut asserts CutLines's contract on text: the bounds hold, and
// putting the ranges' lines back in place of the markers gives text.
func checkCut(t *testing.T, text string, last int64, maxLines, maxBytes int) CutResult {
	t.Helper()
	res, ok := CutLines(text, last, maxLines, maxBytes)
	if !ok {
		return res
	}
	if len(res.Text) > maxBytes && len(res.Ranges) > 0 {
		t.Fatalf("cut text is %d bytes, over %d", len(res.Text), maxBytes)
	}
	if n := cutTextLines(res.Text); n > maxLines && len(res.Ranges) > 0 {
		t.Fatalf("cut text has %d lines, over %d", n, maxLines)
	}
	orig := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	first := last - int64(len(orig)-1)
	var rebuilt []string
	got := strings.Split(strings.TrimSuffix(res.Text, "\n"), "\n")
	ri := 0
	var total int64
	shortened := 0
	for _, l := range got {
		if m := shortenedLine.FindStringSubmatch(l); m != nil {
			cut, _ := strconv.Atoi(m[2])
			num, _ := strconv.ParseInt(m[3], 10, 64)
			if o := orig[num-first]; strings.HasPrefix(o, m[1]) && len(o)-len(m[1]) == cut {
				rebuilt = append(rebuilt, o)
				shortened++
				continue
			}
		}
		if ri < len(res.Ranges) && l == repeatMarker(res.Ranges[ri]) {
			r := res.Ranges[ri]
			if len(rebuilt) == 0 {
				t.Fatalf("%q has no line above it", l)
			}
			for _, o := range orig[r.From-first : r.To-first+1] {
				if o != rebuilt[len(rebuilt)-1] {
					t.Fatalf("%q stands for %q, which is not the line above, %q", l, o, rebuilt[len(rebuilt)-1])
				}
			}
		}
		if ri < len(res.Ranges) && (l == marker(res.Ranges[ri]) || l == repeatMarker(res.Ranges[ri])) {
			r := res.Ranges[ri]
			rebuilt = append(rebuilt, orig[r.From-first:r.To-first+1]...)
			total += r.Len()
			ri++
			continue
		}
		rebuilt = append(rebuilt, l)
	}
	if ri != len(res.Ranges) {
		t.Fatalf("%d ranges, %d markers in %q", len(res.Ranges), ri, res.Text)
	}
	if total != res.Lines {
		t.Fatalf("Lines %d, ranges hold %d", res.Lines, total)
	}
	if shortened != res.Shortened {
		t.Fatalf("Shortened %d, %d lines end as shortened", res.Shortened, shortened)
	}
	back := strings.Join(rebuilt, "\n")
	if strings.HasSuffix(res.Text, "\n") {
		back += "\n"
	}
	if back != text {
		t.Fatalf("markers replaced by their lines do not give the text back:\n%q\n%q", back, text)
	}
	return res
}

func numbered(from, to int) []string {
	var l []string
	for i := from; i <= to; i++ {
		l = append(l, fmt.Sprintf("line %d of the build log", i))
	}
	return l
}

func TestCutLinesKeepsHeadTailAndErrors(t *testing.T) {
	lines := numbered(0, 999)
	lines[300] = "./main.go:12:5: undefined: frobnicate"
	lines[301] = "gcc.c:7:1: error: expected ';' before '}' token"
	lines[500] = "--- FAIL: TestParse (0.00s)"
	lines[600] = "Traceback (most recent call last):"
	lines[601] = `  File "x.py", line 3, in <module>`
	lines[602] = "ValueError: invalid literal for int()"
	lines[700] = "panic: runtime error: index out of range [3] with length 3"
	lines[800] = "Error: Cannot find module 'left-pad'"
	text := strings.Join(lines, "\n") + "\n"
	res := checkCut(t, text, 1999, 200, 4096) // lines 1000..1999
	for _, want := range []string{"line 0 of", "line 999 of", "undefined: frobnicate", "error: expected", "--- FAIL", "Traceback", `File "x.py"`, "ValueError", "panic:", "Error: Cannot"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("cut lost %q:\n%s", want, res.Text)
		}
	}
	// Gaps before 300, 500, 600, 700 and 800, and after 800.
	if len(res.Ranges) != 6 || res.Ranges[0].From <= 1000 {
		t.Fatalf("ranges %v", res.Ranges)
	}
	// The error at index 300 is line 1300: its marker neighbours say so.
	if !strings.Contains(res.Text, fmt.Sprintf("cut (%d lines) ...]\n./main.go:12:5", res.Ranges[0].Len())) ||
		res.Ranges[0].To != 1299 {
		t.Fatalf("first range %v, text:\n%s", res.Ranges[0], res.Text)
	}
}

func TestCutLinesFitsUnchanged(t *testing.T) {
	text := strings.Join(numbered(0, 9), "\n") + "\n$ "
	res, ok := CutLines(text, 10, 100, 1<<10)
	if !ok || res.Text != text || res.Ranges != nil || res.Lines != 0 {
		t.Fatalf("%v %+v", ok, res)
	}
}

func TestCutLinesKeepsPartialLastLine(t *testing.T) {
	text := strings.Join(numbered(0, 499), "\n") + "\nPassword: "
	res := checkCut(t, text, 500, 50, 2048)
	if !strings.HasSuffix(res.Text, "\nPassword: ") {
		t.Fatalf("unfinished last line lost: %q", res.Text[len(res.Text)-40:])
	}
}

func TestCutLinesDeclines(t *testing.T) {
	long := strings.Repeat("x", 3000)
	for name, c := range map[string]struct {
		text            string
		maxLines, bytes int
	}{
		"huge last line": {"a\nb\n" + long + long + long, 100, 4096},
		"tiny budget":    {strings.Repeat("b\n", 100), 5, 4096},
	} {
		if _, ok := CutLines(c.text, 5000, c.maxLines, c.bytes); ok {
			t.Errorf("%s: CutLines did not decline", name)
		}
	}
}

// A line too long for the budget (a JSON document or a minified file on
// one line) kept only a marker in its place, and a huge first line made
// CutLines decline: such lines are shortened to their head, which says
// how much of which line was cut.
func TestCutLinesShortensLongLines(t *testing.T) {
	json := `{"items": [` + strings.Repeat(`{"id": 1, "name": "é"}, `, 3000) + `]}`
	text := "curl -s localhost/api\n" + json + "\n$ "
	res := checkCut(t, text, 102, 1000, 32<<10)
	if res.Shortened != 1 || len(res.Ranges) != 0 || !strings.HasPrefix(res.Text, "curl -s localhost/api\n{\"items\": [{\"id\": 1") ||
		!strings.HasSuffix(res.Text, fmt.Sprintf(" bytes of line 101 cut ...]\n$ ")) || len(res.Text) > 4<<10+64 {
		t.Fatalf("shortened %d, ranges %v, %d bytes:\n%s", res.Shortened, res.Ranges, len(res.Text), res.Text)
	}
	long := strings.Repeat("x", 3000)
	res = checkCut(t, long+"\n"+strings.Repeat("b\n", 2000), 5000, 100, 4096)
	if res.Shortened != 1 || !strings.HasPrefix(res.Text, "xxxxxxxx") || !strings.Contains(res.Text, " bytes of line 3000 cut ...]\n") {
		t.Fatalf("a huge first line: shortened %d:\n%s", res.Shortened, res.Text)
	}
}

// A flood of one line (yes, a loop printing "waiting") filled the result
// with copies of it: a run of the same line is kept once, with a marker
// saying how many times it repeats, so that the budget goes to the lines
// that differ.
func TestCutLinesFoldsRepeatedLines(t *testing.T) {
	var lines []string
	lines = append(lines, "$ ./wait-for-db")
	for range 5000 {
		lines = append(lines, "waiting for db")
	}
	lines = append(lines, numbered(0, 99)...)
	for range 3000 {
		lines = append(lines, "y")
	}
	lines = append(lines, "x.go:3:1: error near the end", "y", "y", "$ ")
	text := strings.Join(lines, "\n")
	last := int64(len(lines) - 1)
	res := checkCut(t, text, last, 1000, 8<<10)
	for _, want := range []string{
		"$ ./wait-for-db\nwaiting for db\n[... lines 2-5000 repeat the line above (4999 lines) ...]\nline 0 of the build log\n",
		"line 99 of the build log\ny\n[... lines 5102-8100 repeat the line above (2999 lines) ...]\n",
		"x.go:3:1: error near the end\ny\ny\n$ ",
	} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("no %q in:\n%s", want, res.Text)
		}
	}
	if strings.Contains(res.Text, "cut (") || len(res.Ranges) != 2 || res.Lines != 4999+2999 {
		t.Errorf("ranges %v (%d lines):\n%s", res.Ranges, res.Lines, res.Text)
	}
	// A few copies, or output that fits, stay as they are.
	few := "a\na\na\nb\n"
	if res := checkCut(t, few+strings.Join(numbered(0, 2000), "\n"), 5000, 100, 4096); !strings.HasPrefix(res.Text, few) {
		t.Errorf("three copies folded:\n%s", res.Text)
	}
	if res := checkCut(t, strings.Repeat("y\n", 50), 50, 100, 4096); res.Text != strings.Repeat("y\n", 50) {
		t.Errorf("output that fits changed:\n%s", res.Text)
	}
}

func TestCutLinesBoundsErrorLines(t *testing.T) {
	lines := numbered(0, 1999)
	for i := 100; i < 1900; i += 10 {
		lines[i] = fmt.Sprintf("x.go:%d:1: error %d", i, i)
	}
	res := checkCut(t, strings.Join(lines, "\n")+"\n", 1999, 10_000, 32<<10)
	// Each error line kept between the head and the newest lines sits
	// between two markers.
	if len(res.Ranges) != MaxKeptErrorLines+1 {
		t.Fatalf("%d ranges: want %d error lines kept in the middle", len(res.Ranges), MaxKeptErrorLines)
	}
}

func TestLooksLikeError(t *testing.T) {
	for _, l := range []string{
		"main.go:3:2: undefined: x", "src/a.c:10: error: bad", "error[E0425]: cannot find value", "--- FAIL: TestX (0.01s)",
		"FAIL\tgithub.com/x/y\t0.01s", "FAILED tests/test_a.py::test_b - assert 1 == 2", "Traceback (most recent call last):",
		`  File "a.py", line 2, in f`, "KeyError: 'x'", "panic: boom", "fatal error: all goroutines are asleep - deadlock!",
		"make: *** [Makefile:3: all] Error 1", "npm ERR! code ELIFECYCLE", "Segmentation fault (core dumped)", "Error: ENOENT",
	} {
		if !LooksLikeError(l) {
			t.Errorf("%q does not look like an error", l)
		}
	}
	for _, l := range []string{"ok  \tgithub.com/x/y\t0.01s", "PASS", "compiling 3 files", "$ ls", "100 passed in 0.3s", "line 12 of 40"} {
		if LooksLikeError(l) {
			t.Errorf("%q looks like an error", l)
		}
	}
}

func FuzzCutLines(f *testing.F) {
	f.Add("a\nb\nc\n", 8, 512)
	f.Add(strings.Join(numbered(0, 300), "\n")+"\nerror: x\n>>> ", 20, 600)
	f.Add("\n\rabc\nx.go:1:1: y\n", 8, 512)
	f.Add("a\n"+strings.Repeat("y\n", 400)+"b\ny\ny\ny\ny\ny", 20, 600)
	f.Fuzz(func(t *testing.T, text string, maxLines, maxBytes int) {
		if maxLines < 0 || maxLines > 20_000 || maxBytes < 0 || maxBytes > 1<<20 || len(text) > 1<<16 {
			return
		}
		checkCut(t, text, 100_000, maxLines, maxBytes)
	})
}

// shortenedLine matches a line CutLines shortened: its head, the bytes
// cut and its number.
var shortenedLine = regexp.MustCompile(`^(.*) \[\.\.\. (\d+) bytes of line (\d+) cut \.\.\.\]$`)

// cutTextLines counts the lines text touches: its newlines, plus one for
// an unterminated last line.
func cutTextLines(text string) int {
	text = strings.TrimPrefix(text, "\n")
	if text == "" {
		return 0
	}
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}
