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
	pad     int      // blank columns after an erase line
	nbytes  int      // UTF-8 length of line
	maxLine int
	cut     int64
	invalid int64
	marks   Marks
}

func refClean(s []byte, maxLine int) *refModel {
	m := &refModel{maxLine: maxLine}
	i := 0
	for i < len(s) {
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
			return i + 1
		}
	}
	return len(s)
}

func (m *refModel) csi(s []byte, i int) int {
	var params []byte
	for ; i < len(s); i++ {
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
			if ch == 'K' && len(params) <= 8 {
				switch string(params) {
				case "", "0":
					m.line = m.line[:m.pos]
					m.nbytes = len(string(m.line))
				case "2":
					m.pad += m.pos
					m.line, m.pos, m.nbytes = nil, 0, 0
				}
			}
			return i + 1
		}
	}
	return len(s)
}

func (m *refModel) osc(s []byte, i int) int {
	var payload []byte
	for ; i < len(s); i++ {
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
	switch ch {
	case '\n':
		m.marks.TextSincePromptEnd++
		m.lines = append(m.lines, strings.TrimRight(string(m.line), " "))
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
}

// all returns every line: the completed ones and a non-empty current one.
func (m *refModel) all() []string {
	if m.nbytes != len(string(m.line)) {
		panic("reference: byte count out of step")
	}
	out := append([]string(nil), m.lines...)
	if len(m.line) > 0 {
		out = append(out, string(m.line))
	}
	return out
}

// text is the whole cleaned output as a cursor would deliver it.
func (m *refModel) text() string {
	var b strings.Builder
	for _, l := range m.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(string(m.line))
	return b.String()
}
