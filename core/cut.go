package core

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Bounds of [CutLines].
const (
	// MaxKeptErrorLines is the most error-looking lines a cut keeps.
	MaxKeptErrorLines = 64
	// maxKeptErrorLine is the longest error-looking line a cut keeps.
	maxKeptErrorLine = 1024
	// minCutLines and minCutBytes are the smallest budgets CutLines works
	// in; below them it declines.
	minCutLines = 8
	minCutBytes = 512
)

// errorLine matches lines that look like errors: a compiler's
// "file:line: message" (gcc, go, tsc), "error:"/"Error:" and rustc's
// "error[E0425]:", test failures (go test's "--- FAIL" and "FAIL", pytest's
// "FAILED" and "E   " lines, jest's "●"), Python tracebacks (the header,
// "File ..., line N" frames and the final "XxxError: ..."), Go panics and
// fatal errors, make's "***", npm's "ERR!", assertion failures and
// segmentation faults.
var errorLine = regexp.MustCompile(`(?i:` +
	`^\s*[\w./\\-]+\.[a-z0-9]+[:(]\d+(?:[:,]\d+)?\)?:?\s` + // file:line: ...  file(l,c): ...
	`|\berror(?:\[\w+\])?:` + // error: Error: error[E0425]:
	`|^\s*(?:---\s+)?FAIL\b|\bFAILED\b|^\s*E\s{3}|^\s*●` + // go test, pytest, jest
	`|^Traceback \(most recent call last\)|^\s+File "[^"]*", line \d+|^\w+(?:Error|Exception)\b` + // python
	`|^panic:|^fatal error:|^goroutine \d+ \[` + // go
	`|^make(?:\[\d+\])?: \*\*\*|\bnpm ERR!|\bassertion\b.*\bfailed\b|\bsegmentation fault\b|\bexception\b` +
	`)`)

// LooksLikeError reports whether line looks like an error message (see
// [CutKeepErrors]).
func LooksLikeError(line string) bool { return errorLine.MatchString(line) }

// CutResult is what [CutLines] kept.
type CutResult struct {
	// Text is the kept output with a marker line in place of each run of
	// lines left out.
	Text string
	// Ranges are the runs of lines left out, oldest first.
	Ranges []LineRange
	// Lines counts the lines left out.
	Lines int64
	// Shortened counts the long lines kept by their head only, each ended
	// with " [... N bytes of line L cut ...]" (see [CutLines]).
	Shortened int
}

// cutLine is one line of the text being cut, or the marker of a run of
// repeats of the line before it (see foldRepeats).
type cutLine struct {
	text    string
	size    int   // bytes, its newline included
	num     int64 // the global number of the line, or of the run's first
	repeats int64 // for a run's marker, the lines it stands for; else 0
}

// span is the range of output lines l stands for.
func (l cutLine) span() LineRange {
	return LineRange{From: l.num, To: l.num + max(l.repeats, 1) - 1}
}

// CutLines fits text into maxLines lines and maxBytes bytes, marker lines
// included. text is consecutive output lines, each ending in "\n" except
// perhaps the last (an unfinished line); last is the global line number of
// its last line. If text fits it is returned as is. Otherwise CutLines
// keeps the first lines (about a quarter of the budget), the newest lines
// (at least half of it) and, between them, up to MaxKeptErrorLines lines
// that look like errors ([LooksLikeError]), and writes a marker line
// "[... lines F-T cut (N lines) ...]" in place of each run it leaves out,
// so that every kept line's number follows from the markers. The
// unfinished last line and the first line are always kept: when one of
// them alone does not fit, or the budget is below 8 lines or 512 bytes,
// CutLines declines (ok false) and the caller cuts another way. Before it
// chooses, each complete line longer than an eighth of maxBytes (a
// minified file, a JSON document on one line) is shortened to its head,
// ended with " [... N bytes of line L cut ...]": the caller sees how such
// a line begins rather than only a marker in its place. And each run of
// more than minRepeatRun copies of one complete line (a flood from yes, a
// loop printing "waiting") is kept as its first copy and a marker line
// "[... lines F-T repeat the line above (N lines) ...]", a range of the
// result like a cut one: the budget goes to the lines that differ.
func CutLines(text string, last int64, maxLines, maxBytes int) (res CutResult, ok bool) {
	ended := strings.HasSuffix(text, "\n")
	lines := splitCutLines(text, last)
	if cutSize(lines) <= maxBytes && len(lines) <= maxLines {
		return CutResult{Text: text}, true
	}
	if maxLines < minCutLines || maxBytes < minCutBytes {
		return CutResult{}, false
	}
	res.Shortened = shortenLongLines(lines, ended, maxBytes/8)
	lines = foldRepeats(lines, ended)
	n := len(lines)
	if cutSize(lines) <= maxBytes && n <= maxLines {
		res.Text = joinCutLines(lines, ended, &res)
		return res, true
	}
	keep := make([]bool, n)
	usedBytes, usedLines := 0, 0
	take := func(i int) {
		keep[i] = true
		usedBytes += lines[i].size
		usedLines++
	}
	// The newest lines, up to half of the budget (the last line always).
	tail := n - 1
	if lines[tail].size > maxBytes/2 {
		return CutResult{}, false
	}
	take(tail)
	for tail > 1 && usedLines < maxLines/2 && usedBytes+lines[tail-1].size <= maxBytes/2 {
		tail--
		take(tail)
	}
	// The first lines, up to a quarter (the first line always: it may
	// continue a line returned before).
	if lines[0].size > maxBytes/4 {
		return CutResult{}, false
	}
	headLines, headBytes := 0, 0
	head := 0
	for head < tail && (head == 0 || headLines < maxLines/4 && headBytes+lines[head].size <= maxBytes/4) {
		headLines++
		headBytes += lines[head].size
		take(head)
		head++
	}
	// Each kept line between head and tail may open one more gap, so one
	// more marker line is budgeted with it.
	reserve := len(fmt.Sprintf(markerFormat, last, last, n)) + 1
	markers := 1
	fits := func(size int) bool {
		return usedLines+markers+1 <= maxLines && usedBytes+size+(markers+1)*reserve <= maxBytes
	}
	kept := 0
	for i := head; i < tail && kept < MaxKeptErrorLines; i++ {
		if lines[i].size <= maxKeptErrorLine && LooksLikeError(lines[i].text) && fits(lines[i].size) {
			take(i)
			markers++
			kept++
		}
	}
	// What is left goes to more of the newest lines.
	for tail > head && !keep[tail-1] && usedLines+markers < maxLines && usedBytes+lines[tail-1].size+markers*reserve <= maxBytes {
		tail--
		take(tail)
	}
	// A run's marker says "the line above": without that line above it,
	// it goes with the lines cut.
	for i := 1; i < n; i++ {
		if lines[i].repeats > 0 && !keep[i-1] {
			keep[i] = false
		}
	}
	var b strings.Builder
	for i := 0; i < n; {
		if keep[i] {
			writeCutLine(&b, lines[i], i < n-1 || ended, &res)
			i++
			continue
		}
		j := i
		for j < n && !keep[j] {
			j++
		}
		r := LineRange{From: lines[i].num, To: lines[j-1].span().To}
		res.Ranges = append(res.Ranges, r)
		res.Lines += r.Len()
		b.WriteString(marker(r))
		b.WriteByte('\n')
		i = j
	}
	res.Text = b.String()
	return res, true
}

// minRepeatRun is the most copies of one line that a cut keeps as they
// are; a longer run is folded (see foldRepeats).
const minRepeatRun = 3

// repeatFormat is the marker line of a run of repeats of the line above.
const repeatFormat = "[... lines %d-%d repeat the line above (%d lines) ...]"

// repeatMarker is the line that stands for r, repeats of the line above.
func repeatMarker(r LineRange) string {
	return fmt.Sprintf(repeatFormat, r.From, r.To, r.Len())
}

// foldRepeats replaces each run of more than minRepeatRun copies of one
// complete line by its first copy and the marker of the other copies.
func foldRepeats(lines []cutLine, ended bool) []cutLine {
	out := lines[:0:0]
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j].text == lines[i].text && (j < len(lines)-1 || ended) {
			j++
		}
		if j-i <= minRepeatRun {
			out = append(out, lines[i:j]...)
			i = j
			continue
		}
		r := LineRange{From: lines[i+1].num, To: lines[j-1].num}
		m := repeatMarker(r)
		out = append(out, lines[i], cutLine{text: m, size: len(m) + 1, num: r.From, repeats: r.Len()})
		i = j
	}
	return out
}

// cutSize is the bytes of lines, their newlines included.
func cutSize(lines []cutLine) int {
	total := 0
	for _, l := range lines {
		total += l.size
	}
	return total
}

// writeCutLine writes a kept line, with its newline when newline, and
// counts a run's marker among res's ranges.
func writeCutLine(b *strings.Builder, l cutLine, newline bool, res *CutResult) {
	b.WriteString(l.text)
	if newline {
		b.WriteByte('\n')
	}
	if l.repeats > 0 {
		res.Ranges = append(res.Ranges, l.span())
		res.Lines += l.repeats
	}
}

// markerFormat is the marker line of a run of several lines.
const markerFormat = "[... lines %d-%d cut (%d lines) ...]"

// marker is the line that stands in for the lines of r.
func marker(r LineRange) string {
	if r.From == r.To {
		return fmt.Sprintf("[... line %d cut ...]", r.From)
	}
	return fmt.Sprintf(markerFormat, r.From, r.To, r.Len())
}

// longLineFormat ends a line shortened to its head, of at least
// minLongLineHead bytes.
const (
	longLineFormat  = " [... %d bytes of line %d cut ...]"
	minLongLineHead = 16
)

// shortenLongLines shortens each complete line of lines (the last is
// complete when ended) longer than limit bytes to its head, on a
// character boundary, with a longLineFormat ending, and returns how many
// it shortened.
func shortenLongLines(lines []cutLine, ended bool, limit int) int {
	n := 0
	for i := range lines {
		l := &lines[i]
		if len(l.text) <= limit || (i == len(lines)-1 && !ended) {
			continue
		}
		end := fmt.Sprintf(longLineFormat, len(l.text), l.num) // an upper bound of its length
		if limit-len(end) < minLongLineHead {
			continue
		}
		head := l.text[:limit-len(end)]
		for len(head) > 0 && !utf8.RuneStart(l.text[len(head)]) {
			head = head[:len(head)-1]
		}
		l.text = head + fmt.Sprintf(longLineFormat, len(l.text)-len(head), l.num)
		l.size = len(l.text) + 1
		n++
	}
	return n
}

// joinCutLines joins lines back into text (ended: with a final "\n"),
// counting the runs' markers among res's ranges.
func joinCutLines(lines []cutLine, ended bool, res *CutResult) string {
	var b strings.Builder
	for i, l := range lines {
		writeCutLine(&b, l, i < len(lines)-1 || ended, res)
	}
	return b.String()
}

// splitCutLines splits text, whose last line is numbered last, into its
// lines; a final "\n" ends the last line rather than starting another.
func splitCutLines(text string, last int64) []cutLine {
	parts := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	lines := make([]cutLine, len(parts))
	first := last - int64(len(parts)-1)
	for i, p := range parts {
		lines[i] = cutLine{text: p, size: len(p) + 1, num: first + int64(i)}
	}
	if !strings.HasSuffix(text, "\n") {
		lines[len(lines)-1].size--
	}
	return lines
}

// nextKeepingErrors advances cur like cur.Next(read, maxLines, maxBytes)
// but cuts with [CutLines]: it reads everything pending, keeps its head,
// its tail and the error-looking lines between within the bounds, and
// returns the ranges left out, each with its marker line in the text and
// still retained for a read by line number. Pending lines the session no
// longer retains (its scrollback keeps the newest) are counted in the
// delta's Skipped only: no read can page them. Where CutLines declines,
// it cuts as Next does (the newest part).
func nextKeepingErrors(cur *Cursor, read func(PageRequest) (PageResult, error), maxLines, maxBytes int) (OutputDelta, []LineRange, error) {
	var pg PageResult
	capture := func(r PageRequest) (PageResult, error) {
		p, err := read(r)
		pg = p
		return p, err
	}
	try := *cur
	d, err := try.Next(capture, MaxPageLinesLimit, 0)
	if err != nil {
		return OutputDelta{}, nil, err
	}
	end := pg.Start + min(int64(len(pg.Lines)), max(pg.End-pg.Start, 0))
	c, ok := CutLines(d.Text, end-1, maxLines, maxBytes)
	if !ok {
		d, err = cur.Next(read, maxLines, maxBytes)
		return d, nil, err
	}
	*cur = try
	if len(c.Ranges) > 0 || c.Shortened > 0 {
		d.Text, d.Truncated, d.Skipped = c.Text, true, d.Skipped+c.Lines
	}
	return d, c.Ranges, nil
}
