package core

import "strings"

// Bracketed paste: a line editor that indents by itself (IPython and
// prompt_toolkit's other REPLs, Python's own REPL from 3.13, irb)
// indents each line after one that opens a block, so a block typed line
// by line, already indented, ends up indented twice and loses its
// dedents (Python answers IndentationError). A terminal wraps pasted
// text in ESC [200~ and ESC [201~ when the program asked for it (CSI ?
// 2004 h), and those editors insert a paste as it is. A send whose data
// is such a block goes the same way to them: see [SendRequest.Data].
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// asPaste returns data as a terminal pastes it when data holds a block
// whose indentation a line editor could double: several lines, a line
// after the first indented. Each block goes between the paste markers;
// what a REPL reads as the end of a block stays typed keys: the line
// breaks after the last line, and the blank lines before an unindented
// line that starts the next block (a definition, then a call of it).
// Blank lines inside a block (between a class's methods) stay in its
// paste. ok is false, and data is typed as it is, when no block has an
// indented line after its first, and for data that holds an escape
// (keys, or markers of its own).
func asPaste(data string) (pasted string, ok bool) {
	body := strings.TrimRight(data, "\r\n")
	if strings.ContainsRune(data, '\x1b') || !strings.Contains(body, "\n") {
		return data, false
	}
	lines := splitLines(body)
	var b strings.Builder
	first := 0 // the first line of the block being read
	flush := func(last int) {
		block := body[lines[first].start:lines[last].end]
		if last > first && hasIndentedLine(body, lines[first+1:last+1]) {
			b.WriteString(pasteStart + block + pasteEnd)
			ok = true
		} else {
			b.WriteString(block)
		}
	}
	for i := 1; i < len(lines); i++ {
		if !lines[i-1].blank(body) || lines[i].blank(body) || lines[i].indented(body) {
			continue
		}
		last := i - 1
		for last > first && lines[last].blank(body) {
			last--
		}
		flush(last)
		b.WriteString(body[lines[last].end:lines[i].start])
		first = i
	}
	flush(len(lines) - 1)
	if !ok {
		return data, false
	}
	b.WriteString(data[len(body):])
	return b.String(), true
}

// span is one line of a text: text[start:end], without its newline.
type span struct{ start, end int }

// splitLines returns the lines of s.
func splitLines(s string) []span {
	var out []span
	for at := 0; ; {
		n := strings.IndexByte(s[at:], '\n')
		if n < 0 {
			return append(out, span{at, len(s)})
		}
		out = append(out, span{at, at + n})
		at += n + 1
	}
}

func (l span) blank(s string) bool { return blank(s[l.start:l.end]) }

func (l span) indented(s string) bool { return indented(s[l.start:l.end]) }

// hasIndentedLine reports whether one of lines of s is indented and not
// blank.
func hasIndentedLine(s string, lines []span) bool {
	for _, l := range lines {
		if l.indented(s) && !l.blank(s) {
			return true
		}
	}
	return false
}

// pastesLocked reports whether a block sent now goes as a paste: the
// program on the terminal reads pastes in an editor that redraws its
// input (scrollback.PasteMode), and no shell waits at its prompt. GNU
// readline, which bash, gdb, sqlite3 and bc read with, reads a paste as
// one line (gdb runs "print 1\nprint 2" as one command, bc's "1+\n  2"
// fails) and redraws it over the rows it took, which the transcript does
// not follow; it does not indent by itself, so a typed block reads as
// written. A shell reads a typed block line by line as it should: a
// marked shell holding the terminal, a stream that ends at a prompt
// marker, and a send that settled on a remote shell's prompt all keep
// typing (shellReadsLocked). base is the send's baseline. sess.mu is held.
func (sess *session) pastesLocked(base InputBaseline) bool {
	if m := sess.buf.PasteMode(); !m.Bracketed || !m.Redraws {
		return false
	}
	return !sess.shellReadsLocked(base)
}

// editorPastes reports whether data goes as one paste, as a terminal
// pastes it: a full-screen program that asked for bracketed paste holds
// the terminal (vim, nano: the alternate screen, editorModeLocked) and
// data spans lines. Such an editor with autoindent starts each typed line
// with the indentation of the one before, and a block's own indentation
// comes on top of it. Not for one line, not for data that holds an escape
// (keys, or markers of its own), and not under a terminal multiplexer
// (tmux, screen, zellij), whose screen asks for bracketed paste for
// whatever its pane runs: GNU readline there (gdb) would read a pasted
// block as one line. It asks the backend for the foreground without
// sess.mu held; the caller checks editorModeLocked again as it writes.
func (sess *session) editorPastes(data string) bool {
	if strings.ContainsRune(data, '\x1b') || !strings.ContainsAny(data, "\r\n") {
		return false
	}
	sess.mu.Lock()
	editor := sess.editorModeLocked()
	sess.mu.Unlock()
	if !editor {
		return false
	}
	fg := sess.describeForeground()
	return fg == nil || !multiplexers[fg.Name]
}

// editorModeLocked reports whether a program on the alternate screen asked
// for bracketed paste. sess.mu is held.
func (sess *session) editorModeLocked() bool {
	return sess.buf.AltScreen() && sess.buf.PasteMode().Bracketed
}
