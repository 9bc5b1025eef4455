package core

import "strings"

// REPLContinuationPrompt is the prompt a read-eval-print loop prints while
// it reads the rest of an incomplete statement: Python's sys.ps2 (an
// indented block, which only an empty line ends; an open bracket) and
// Node's. A send that settled on the program's read with this alone on
// the last line (after it, only the spaces Python 3.13's editor indents
// the next line with) is a continuation (SendResult.Continuation).
const REPLContinuationPrompt = "... "

// WaitsForREPLContinuation reports whether a send that settled for reason
// with output text left a REPL at its continuation prompt: reason is
// [WaitStdinRead] and the last line of text is [REPLContinuationPrompt],
// then spaces or nothing.
func WaitsForREPLContinuation(reason WaitReason, text string) bool {
	if reason != WaitStdinRead {
		return false
	}
	last := text[strings.LastIndexByte(text, '\n')+1:]
	rest, ok := strings.CutPrefix(last, REPLContinuationPrompt)
	return ok && strings.Trim(rest, " ") == ""
}
