package scrollback

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// refModel is the test's reference cleaner: a slow, direct reading of the
// rules, written independently of the state machine. It reads the whole
// stream at once (sequences are scanned ahead, not carried in state), keeps
// every line, and edits the current line as a slice of runes.
type refModel struct {
	lines   []string // completed lines, all of them
	line    []rune   // current line
	pos     int      // write position (rune index)
	pad     int      // blank columns after an erase line or a move right
	held    int      // blank lines not yet in lines: a move up takes them back
	below   int      // rows a move up left under the cursor: a move down goes back
	up      int      // a move up that could not act, until an erase below rewinds
	replay  []string // rows a rewind could not take back, drawn again next
	lineAt  []int    // for each line, the stream offset that stored it
	reads   []int    // stream offsets at which a reader took lines
	at      int      // the offset of the byte being read
	alt     bool     // on the alternate screen: text is counted, not kept
	saved   bool     // a cursor position saved and not restored
	nbytes  int      // UTF-8 length of line
	maxLine int
	// maxLines and maxBytes bound the lines the buffer retains (0: no
	// bound): a rewind or a reopen cannot reach a line it dropped.
	// dropped counts the oldest lines dropped, keptBytes the text bytes
	// of the others.
	maxLines, maxBytes int
	dropped, keptBytes int
	cut                int64
	invalid            int64
	marks              Marks
}

func refClean(s []byte, maxLine int) *refModel {
	return refCleanRead(s, Limits{MaxLineBytes: maxLine}, nil)
}

// refCleanRead is refClean with the buffer's limits (MaxLines and
// MaxBytes 0: no bound) and readers that took lines after the first
// reads[k] bytes: a line they took cannot be reopened.
func refCleanRead(s []byte, lim Limits, reads []int) *refModel {
	m := &refModel{maxLine: lim.MaxLineBytes, maxLines: lim.MaxLines, maxBytes: lim.MaxBytes, reads: reads}
	i := 0
	for i < len(s) {
		m.at = i
		ch := s[i]
		switch {
		case ch == esc:
			i = m.escape(s, i+1)
		case ch >= 0x80:
			if !utf8.FullRune(s[i:]) {
				return m // an incomplete rune at the end waits for more
			}
			r, w := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && w == 1 {
				m.invalid++
			}
			m.put(r)
			i += w
		case ch == '\t' || (ch >= 0x20 && ch < 0x7f):
			m.put(rune(ch))
			i++
		default:
			m.ctl(ch)
			i++
		}
	}
	return m
}

// escape scans the sequence after an ESC and returns where ground text
// resumes (at an ESC that starts another sequence, or at a byte >= 0x80
// that aborted it).
func (m *refModel) escape(s []byte, i int) int {
	inter := false
	for ; i < len(s); i++ {
		m.at = i
		ch := s[i]
		switch {
		case ch >= 0x80, ch == esc:
			return i
		case ch == can || ch == sub:
			return i + 1
		case ch == del:
		case ch < 0x20:
			m.ctl(ch)
		case ch < 0x30:
			inter = true
		case inter:
			return i + 1
		case ch == '[':
			return m.csi(s, i+1)
		case ch == ']':
			return m.osc(s, i+1)
		case ch == 'P' || ch == 'X' || ch == '^' || ch == '_':
			return m.str(s, i+1)
		default:
			switch ch {
			case 'c':
				m.alt, m.below, m.up, m.replay, m.saved = false, 0, 0, nil, false
			case '7', '8':
				m.saved = ch == '7'
			}
			return i + 1
		}
	}
	return len(s)
}

func (m *refModel) csi(s []byte, i int) int {
	var params []byte
	for ; i < len(s); i++ {
		m.at = i
		ch := s[i]
		switch {
		case ch >= 0x80, ch == esc:
			return i
		case ch == can || ch == sub:
			return i + 1
		case ch == del:
		case ch < 0x20:
			m.ctl(ch)
		case ch < 0x40:
			params = append(params, ch)
		default:
			if len(params) <= 8 {
				m.edit(ch, string(params))
			}
			return i + 1
		}
	}
	return len(s)
}

// edit applies a CSI sequence's edit of the current line.
func (m *refModel) edit(final byte, params string) {
	if final == 'h' || final == 'l' {
		if strings.HasPrefix(params, "?") {
			for _, mode := range strings.Split(params[1:], ";") {
				if mode == "1049" || mode == "1047" {
					m.alt = final == 'h'
					if m.alt {
						m.marks.Draws++
					}
				}
			}
		}
		return
	}
	if (final == 's' || final == 'u') && params == "" {
		m.saved = final == 's'
	}
	if final == 'J' && params == "2" {
		m.marks.Clears++
	}
	if (final == 'H' || final == 'f') && (m.alt || !m.saved) {
		row, _, _ := strings.Cut(params, ";")
		if n := strings.TrimLeft(row, "0"); strings.Trim(row, "0123456789") == "" && n != "" && n != "1" {
			m.marks.Draws++
		}
	}
	if m.alt {
		return
	}
	up := m.up
	if !strings.ContainsRune("CDGm", rune(final)) {
		m.up = 0
	}
	if final == 'J' && (params == "" || params == "0") && up > 0 {
		m.rewind(up)
		return
	}
	count := func() (int, bool) {
		if strings.Trim(params, "0123456789") != "" {
			return 0, false
		}
		n := 1
		if v, err := strconv.Atoi(params); err == nil {
			n = min(max(v, 1), 1024)
		} else if params != "" {
			n = 1024 // more digits than an int holds
		}
		return n, true
	}
	switch final {
	case 'K', 'J':
		switch {
		case params == "" || params == "0":
			m.line = m.line[:m.pos]
			m.nbytes = len(string(m.line))
		case params == "2" && final == 'K':
			m.pad += m.pos
			m.line, m.pos, m.nbytes = nil, 0, 0
		}
	case 'D':
		if n, ok := count(); ok {
			for ; n > 0 && m.pad > 0; n-- {
				m.pad--
			}
			m.pos = max(m.pos-n, 0)
		}
	case 'C':
		if n, ok := count(); ok {
			m.right(n)
		}
	case 'G':
		if n, ok := count(); ok {
			m.pos, m.pad = 0, 0
			m.right(n - 1)
		}
	case 'P':
		if n, ok := count(); ok && m.pad == 0 {
			end := min(m.pos+n, len(m.line))
			m.line = append(m.line[:m.pos:m.pos], m.line[end:]...)
			m.nbytes = len(string(m.line))
		}
	case '@':
		if n, ok := count(); ok && m.pos < len(m.line) {
			n = min(n, m.maxLine-m.nbytes)
			if n > 0 {
				rest := append([]rune(strings.Repeat(" ", n)), m.line[m.pos:]...)
				m.line = append(m.line[:m.pos:m.pos], rest...)
				m.nbytes += n
			}
		}
	case 'X':
		if n, ok := count(); ok && m.pos < len(m.line) {
			end := min(m.pos+n, len(m.line))
			if end == len(m.line) {
				m.line = m.line[:m.pos]
			} else {
				for j := m.pos; j < end; j++ {
					m.line[j] = ' '
				}
			}
			m.nbytes = len(string(m.line))
		}
	case 'A':
		n, ok := count()
		if !ok {
			return
		}
		if strings.Trim(string(m.line), " ") != "" || len(string(m.line)) > 256 {
			m.up = n
			return
		}
		col := m.pos + m.pad
		k := min(n, m.held)
		reopen := n-k == 1 && m.retained() > 0 && !m.taken(m.lineAt[len(m.lines)-1])
		if k == 0 && !reopen {
			m.up = n
			return
		}
		m.held -= k
		m.below = min(m.below+k, 511)
		m.line, m.pos, m.pad, m.nbytes = nil, 0, 0, 0
		if reopen {
			m.below++
			last := len(m.lines) - 1
			m.line, m.nbytes = []rune(m.lines[last]), len(m.lines[last])
			m.popLines(last)
		}
		m.right(col)
	case 'B':
		n, ok := count()
		if !ok {
			return
		}
		for range min(n, m.below) {
			col := m.pos + m.pad
			m.ctl('\n')
			m.right(col)
		}
	}
}

// rewind is an erase below after a move up of n rows that could not act:
// the rows above are the held blank lines, then the stored lines; the
// target row becomes the current line, erased from the cursor's column,
// when every stored row it drops is untaken; otherwise the erase acts on
// the current line.
func (m *refModel) rewind(n int) {
	col := m.pos + m.pad
	k := n - m.held
	if k > 0 && k <= 64 && k <= m.retained() && m.held == 0 && m.taken(m.lineAt[len(m.lines)-k]) {
		// Rows a reader took stay; the redraw writes them again.
		m.replay = append([]string(nil), m.lines[len(m.lines)-k:]...)
		m.below = 0
		m.line, m.pos, m.pad = []rune(m.replay[0]), 0, 0
		m.right(col)
		m.line = m.line[:m.pos]
		m.nbytes = len(string(m.line))
		return
	}
	if k > 0 && (k > m.retained() || m.taken(m.lineAt[len(m.lines)-k])) {
		m.line = m.line[:m.pos]
		m.nbytes = len(string(m.line))
		return
	}
	m.line, m.pos, m.pad, m.nbytes = nil, 0, 0, 0
	if k <= 0 {
		m.held -= n
	} else {
		m.held = 0
		last := len(m.lines) - k
		m.line, m.nbytes = []rune(m.lines[last]), len(m.lines[last])
		m.popLines(last)
	}
	m.below = 0
	m.right(col)
	m.line = m.line[:m.pos]
	m.nbytes = len(string(m.line))
}

// taken reports whether a reader took the line stored at offset at: a
// read came after it and before the byte being read.
func (m *refModel) taken(at int) bool {
	for _, r := range m.reads {
		if at < r && r <= m.at {
			return true
		}
	}
	return false
}

// addLine appends a completed line, dropping the oldest retained one
// first when the line bound is reached.
func (m *refModel) addLine(l string) {
	if m.maxLines > 0 && m.retained() >= m.maxLines {
		m.dropOldest()
	}
	m.lines = append(m.lines, l)
	m.lineAt = append(m.lineAt, m.at)
	m.keptBytes += len(l)
	m.enforce()
}

// retained is the number of lines the buffer still holds.
func (m *refModel) retained() int { return len(m.lines) - m.dropped }

// popLines takes the lines from n on back out (a rewind, a reopen).
func (m *refModel) popLines(n int) {
	for _, l := range m.lines[n:] {
		m.keptBytes -= len(l)
	}
	m.lines, m.lineAt = m.lines[:n], m.lineAt[:n]
}

// dropOldest drops the oldest retained line.
func (m *refModel) dropOldest() {
	m.keptBytes -= len(m.lines[m.dropped])
	m.dropped++
}

// enforce drops the oldest retained lines until the bounds hold, the
// current line counted towards both, as the buffer does after each
// write of text and each stored line.
func (m *refModel) enforce() {
	if m.maxLines <= 0 {
		return
	}
	p := 0
	if m.nbytes > 0 {
		p = 1
	}
	for m.retained() > 0 && (m.retained()+p > m.maxLines || m.keptBytes+m.nbytes > m.maxBytes) {
		m.dropOldest()
	}
}

// right moves the write position n columns right, past the line's end
// as blank columns (at most 1024 of them).
func (m *refModel) right(n int) {
	step := min(n, len(m.line)-m.pos)
	m.pos += step
	if n -= step; n > 0 {
		m.pad = max(m.pad, min(m.pad+n, 1024))
	}
}

// store moves the held blank lines into lines.
func (m *refModel) store() {
	for ; m.held > 0; m.held-- {
		m.addLine("")
	}
}

func (m *refModel) osc(s []byte, i int) int {
	var payload []byte
	for ; i < len(s); i++ {
		m.at = i
		ch := s[i]
		switch {
		case ch == bel:
			m.oscDone(payload)
			return i + 1
		case ch == esc:
			m.oscDone(payload)
			return i
		case ch == can || ch == sub:
			return i + 1
		case ch < 0x20:
		default:
			payload = append(payload, ch)
		}
	}
	return len(s)
}

func (m *refModel) oscDone(p []byte) {
	if len(p) > 4096 {
		return
	}
	f := strings.Split(string(p), ";")
	if len(f) < 2 || f[0] != "133" {
		return
	}
	switch f[1] {
	case "A", "D":
		m.alt = false
	}
	switch f[1] {
	case "B", "P", "D":
		m.store()
		m.up, m.replay = 0, nil
	}
	switch f[1] {
	case "B":
		m.marks.PromptEnds++
		m.marks.TextSincePromptEnd = 0
		m.marks.ContinuationPending = false
	case "P":
		m.marks.Continuations++
		m.marks.ContinuationPending = true
	case "D":
		m.marks.CommandEnds++
		m.marks.LastExitCode, m.marks.LastExitValid = 0, false
		if len(f) > 2 {
			if n, err := strconv.Atoi(f[2]); err == nil {
				m.marks.LastExitCode, m.marks.LastExitValid = n, true
			}
		}
		m.marks.InputLine, m.marks.InputLineValid, m.marks.InputPending = 0, false, false
		for _, o := range f[min(len(f), 3):] {
			k, v, _ := strings.Cut(o, "=")
			switch k {
			case "line":
				if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
					m.marks.InputLine, m.marks.InputLineValid = n, true
				}
			case "inq":
				m.marks.InputPending = v == "1"
			}
		}
	}
}

func (m *refModel) str(s []byte, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case esc:
			return i
		case can, sub:
			return i + 1
		}
	}
	return len(s)
}

func (m *refModel) ctl(ch byte) {
	if ch == '\n' {
		m.up = 0
	}
	if m.alt {
		if ch == '\n' {
			m.marks.TextSincePromptEnd++
		}
		return
	}
	switch ch {
	case '\n':
		m.below = max(m.below-1, 0)
		m.marks.TextSincePromptEnd++
		if len(m.replay) > 0 {
			if strings.TrimRight(string(m.line), " ") == m.replay[0] {
				m.replay = m.replay[1:]
				m.line, m.pos, m.pad, m.nbytes = nil, 0, 0, 0
				return
			}
			m.replay = nil
		}
		if l := strings.TrimRight(string(m.line), " "); l != "" {
			m.store()
			m.line, m.pos, m.pad, m.nbytes = nil, 0, 0, 0
			m.addLine(l)
		} else if m.held < 512 {
			m.held++
		} else {
			m.addLine("")
		}
		m.line, m.pos, m.pad, m.nbytes = nil, 0, 0, 0
	case '\r':
		m.pos, m.pad = 0, 0
	case bs:
		if m.pad > 0 {
			m.pad--
		} else if m.pos > 0 {
			m.pos--
		}
	}
}

func (m *refModel) put(r rune) {
	m.up = 0
	if m.alt {
		m.marks.TextSincePromptEnd += int64(utf8.RuneLen(r))
		return
	}
	if r != ' ' {
		m.store()
	}
	m.marks.TextSincePromptEnd += int64(utf8.RuneLen(r))
	for ; m.pad > 0; m.pad-- {
		m.line = append(m.line, ' ')
		m.pos++
		m.nbytes++
	}
	if m.pos < len(m.line) {
		m.nbytes -= utf8.RuneLen(m.line[m.pos])
		m.line[m.pos] = r
	} else {
		m.line = append(m.line, r)
	}
	m.nbytes += utf8.RuneLen(r)
	m.pos++
	for m.nbytes > m.maxLine {
		m.cut += int64(utf8.RuneLen(m.line[0]))
		m.nbytes -= utf8.RuneLen(m.line[0])
		m.line = m.line[1:]
		m.pos--
		if m.pos < 0 {
			panic("reference: cut past the write position")
		}
	}
	m.enforce()
}

// all returns every line: the completed ones and a non-empty current one.
func (m *refModel) all() []string {
	if m.nbytes != len(string(m.line)) {
		panic("reference: byte count out of step")
	}
	out := append([]string(nil), m.lines...)
	if len(m.line) > 0 {
		out = append(out, m.shown())
	}
	return out
}

// shown is the current line as a screen shows it: the blanks after the
// write position that end the line are nothing.
func (m *refModel) shown() string {
	return string(m.line[:m.pos]) + strings.TrimRight(string(m.line[m.pos:]), " ")
}

// text is the whole cleaned output as a cursor would deliver it.
func (m *refModel) text() string {
	var b strings.Builder
	for _, l := range m.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.shown())
	return b.String()
}
