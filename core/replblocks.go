package core

import (
	"strings"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// Python's interactive console (and Node's REPL, whose continuation
// prompt is the same) reads a compound statement until a blank line: a
// function or a class written as in a file, with a blank line between two
// statements of a body or two methods, ends there, and the rest of it is
// read as new statements (IndentationError). A line editor that reads
// pastes takes such a block as a paste (asPaste); one that does not (GNU
// readline, as Python's REPL up to 3.12 uses) gets it typed without the
// blank lines inside its blocks.

// replPrompts are the prompts of Python's console (sys.ps1, sys.ps2; the
// second is Node's continuation prompt too): a send typed at one of them
// leaves out the blank lines inside a block.
var replPrompts = []string{">>> ", REPLContinuationPrompt}

// atREPLPromptLocked reports whether the program waits at one of
// replPrompts: the output's unterminated last line is one of them.
// sess.mu is held.
func (sess *session) atREPLPromptLocked() bool {
	pg := sess.buf.Page(scrollback.PageRequest{Newest: true, Count: 1}, 64)
	if !pg.Partial || len(pg.Lines) == 0 {
		return false
	}
	last := pg.Lines[len(pg.Lines)-1]
	for _, p := range replPrompts {
		if last == p {
			return true
		}
	}
	return false
}

// withoutBlankLinesInBlocks returns data without the blank lines that lie
// inside a compound statement: those followed (after more blank lines or
// none) by a line that continues it (continuesBlock). A blank line before
// another unindented line, or at the end, stays: it ends the statement. ok is false, and data is kept as
// it is, when there is nothing to leave out, and for data that may hold
// a string spanning lines (triple quotes, a backquote), whose blank lines
// are its text, or an escape (keys).
func withoutBlankLinesInBlocks(data string) (typed string, ok bool) {
	if strings.Contains(data, `"""`) || strings.Contains(data, "'''") || strings.ContainsAny(data, "`\x1b") {
		return data, false
	}
	lines := strings.Split(data, "\n")
	kept := make([]string, 0, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			next := i + 1
			for next < len(lines) && strings.TrimSpace(lines[next]) == "" {
				next++
			}
			if next < len(lines) && continuesBlock(lines[next]) {
				ok = true
				continue
			}
		}
		kept = append(kept, l)
	}
	if !ok {
		return data, false
	}
	return strings.Join(kept, "\n"), true
}

// continuesBlock reports whether line continues the compound statement
// before it: it is indented, or it is the next clause of an if or a try
// (elif, else, except, finally).
func continuesBlock(line string) bool {
	if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
		return true
	}
	for _, kw := range []string{"elif", "else", "except", "finally"} {
		if rest, ok := strings.CutPrefix(line, kw); ok && (rest == "" || strings.ContainsAny(rest[:1], " :(")) {
			return true
		}
	}
	return false
}
