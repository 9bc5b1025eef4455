package core

import "strings"

// REPLContinuationPrompt is the prompt a read-eval-print loop prints while
// it reads the rest of an incomplete statement: Python's sys.ps2 (an
// indented block, which only an empty line ends; an open bracket) and
// Node's. A send that settled on the program's read with this alone on
// the last line (after it, only the spaces Python 3.13's editor indents
// the next line with) is a continuation (SendResult.Continuation).
const REPLContinuationPrompt = "... "

// SQLContinuationPrompt is the prompt sqlite3 prints while it reads the
// rest of a statement that lacks its closing ";" (or has an open quote).
// Only the ";" ends it; neither an empty line nor an interrupt does. A
// send that settled on the program's read with this alone on the last
// line is a continuation (SendResult.Continuation).
const SQLContinuationPrompt = "   ...> "

// ContinuationPrompt returns the continuation prompt that a send which
// settled for reason with output text left a program at, or "": reason is
// [WaitStdinRead] and the last line of text is [REPLContinuationPrompt] or
// [SQLContinuationPrompt], then spaces or nothing.
func ContinuationPrompt(reason WaitReason, text string) string {
	if reason != WaitStdinRead {
		return ""
	}
	last := text[strings.LastIndexByte(text, '\n')+1:]
	for _, p := range []string{REPLContinuationPrompt, SQLContinuationPrompt} {
		if rest, ok := strings.CutPrefix(last, p); ok && strings.Trim(rest, " ") == "" {
			return p
		}
	}
	return ""
}
