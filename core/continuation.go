package core

import "strings"

// REPLContinuationPrompt is the prompt a read-eval-print loop prints while
// it reads the rest of an incomplete statement: Python's sys.ps2 (an
// indented block, which only an empty line ends; an open bracket) and
// Node's. A send that settled on the program's read with this alone on
// the last line is a continuation (SendResult.Continuation).
const REPLContinuationPrompt = "... "

// WaitsForREPLContinuation reports whether a send that settled for reason
// with output text left a REPL at its continuation prompt: reason is
// [WaitStdinRead] and text ends with [REPLContinuationPrompt] alone on its
// last line.
func WaitsForREPLContinuation(reason WaitReason, text string) bool {
	if reason != WaitStdinRead || !strings.HasSuffix(text, REPLContinuationPrompt) {
		return false
	}
	rest := text[:len(text)-len(REPLContinuationPrompt)]
	return rest == "" || strings.HasSuffix(rest, "\n")
}
