package core

import (
	"regexp"
	"strings"
)

// Python's interactive console (and Node's REPL, whose continuation
// prompt is the same) reads a compound statement until a blank line, and
// only a blank line ends one: code written as in a file, with a blank
// line between two statements of a body or two methods, ends at that
// line (IndentationError for the rest), and a statement right after a
// block, with no blank line before it, is read into the block
// (SyntaxError). A line editor that reads pastes takes such a block as a
// paste (asPaste); one that does not (GNU readline, as Python's REPL up
// to 3.12 uses) gets it typed as the console reads a file
// (forPythonConsole).

// replPrompts are the prompts of Python's console (sys.ps1, sys.ps2; the
// second is Node's continuation prompt too): a send typed at one of them
// (the output's unterminated last line) goes as forPythonConsole types
// it.
var replPrompts = []string{">>> ", REPLContinuationPrompt}

// freshPrompts match the first prompt of Python's console and IPython's
// ("In [3]: "), where a statement begins: there data that ends inside a
// block gets what ends it (endsInsideBlock).
var freshPrompts = regexp.MustCompile(`^(>>> |In \[\d+\]: ?)$`)

// endsInsideBlock reports whether data ends inside a block: its last line
// is indented (no line break after it). At a fresh prompt the console
// runs such a block only after an empty line, which a file's end stands
// for.
func endsInsideBlock(data string) bool {
	last := data[strings.LastIndexByte(data, '\n')+1:]
	return indented(last) && !blank(last)
}

// forPythonConsole returns data as Python's console must read it to run
// it as a file would: without the blank lines inside a compound statement
// (those followed, after more blank lines or none, by a line that
// continues it: continuesBlock), and with a blank line that ends each
// compound statement before the unindented line after it. ok is false,
// and data is kept as it is, when nothing changes, and for data that may
// hold a string spanning lines (triple quotes, a backquote), whose blank
// lines are its text, or an escape (keys). At the console's first
// prompt (fresh: ">>> "), data that ends inside a block it opened gets
// the blank line that ends it, as a file's end does; at "... " a block
// typed a line a send stays open.
func forPythonConsole(data string, fresh bool) (typed string, ok bool) {
	if strings.Contains(data, `"""`) || strings.Contains(data, "'''") || strings.ContainsAny(data, "`\x1b") {
		return data, false
	}
	lines := strings.Split(data, "\n")
	kept := make([]string, 0, len(lines)+4)
	inBlock := false // the last line kept is an indented line, not yet ended
	for i, l := range lines {
		if blank(l) {
			next := i + 1
			for next < len(lines) && blank(lines[next]) {
				next++
			}
			if next < len(lines) && continuesBlock(lines[next]) {
				ok = true
				continue
			}
			kept = append(kept, l)
			inBlock = false
			continue
		}
		if inBlock && !continuesBlock(l) && !strings.ContainsAny(l[:1], ")]}") {
			kept = append(kept, "")
			ok = true
		}
		kept = append(kept, l)
		inBlock = indented(l)
	}
	if fresh && inBlock {
		kept = append(kept, "")
		ok = true
	}
	if !ok {
		return data, false
	}
	return strings.Join(kept, "\n"), true
}

// blank reports whether line holds only blanks.
func blank(line string) bool { return strings.TrimSpace(line) == "" }

// indented reports whether line starts with a space or a tab.
func indented(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}

// continuesBlock reports whether line continues the compound statement
// before it: it is indented, or it is the next clause of an if or a try
// (elif, else, except, finally).
func continuesBlock(line string) bool {
	if indented(line) {
		return true
	}
	for _, kw := range []string{"elif", "else", "except", "finally"} {
		if rest, ok := strings.CutPrefix(line, kw); ok && (rest == "" || strings.ContainsAny(rest[:1], " :(")) {
			return true
		}
	}
	return false
}
