package core

import (
	"regexp"
	"strings"
)

// REPLContinuationPrompt is the prompt a read-eval-print loop prints while
// it reads the rest of an incomplete statement: Python's sys.ps2 (an
// indented block, which only an empty line ends; an open bracket) and
// Node's. A send that settled on the program's read with this alone on
// the last line (after it, only the spaces Python 3.13's editor indents
// the next line with) is a continuation (SendResult.Continuation).
const REPLContinuationPrompt = "... "

// SQLContinuationPrompt is the prompt sqlite3 prints while it reads the
// rest of a statement that lacks its closing ";" (or has an open quote).
// Only the ";" ends it; neither an empty line nor an interrupt does.
// jshell prints the same while a statement's brackets are open. A
// send that settled on the program's read with this alone on the last
// line is a continuation (SendResult.Continuation).
const SQLContinuationPrompt = "   ...> "

// sqlClientContinuation matches the continuation prompts of the SQL
// clients whose prompt names the open construct: psql's PROMPT2 (the
// database, then "-" for a statement without its ";", a quote, "$" or
// "(" for what is open, "*" in a comment, an optional transaction
// status, then "#" or ">": "postgres-# ", "postgres'# "), which its
// first prompt ("postgres=# ", "postgres=*# ") never matches, and
// mysql's and MariaDB's ("    -> ", "    '> ", "   /*> ").
var sqlClientContinuation = regexp.MustCompile("^(?:[^\\s]{0,63}[^\\s=][-*'\"$(][*!?]?[#>]| {3,}(?:-|'|\"|`|/\\*)>) $")

// ContinuationPrompt returns the continuation prompt that a send which
// settled for reason with output text left a program at, or "": reason is
// [WaitStdinRead] (or [WaitRemotePrompt]: a console on the far side of a
// remote login) and the last line of text is a continuation prompt
// (continuationLine): [REPLContinuationPrompt], [SQLContinuationPrompt],
// or a SQL client's continuation prompt as the line shows it
// ("postgres-# ", "    -> ").
func ContinuationPrompt(reason WaitReason, text string) string {
	if reason != WaitStdinRead && reason != WaitRemotePrompt {
		return ""
	}
	return continuationLine(text[strings.LastIndexByte(text, '\n')+1:])
}

// continuationLine returns the continuation prompt line is, or "": line is
// [REPLContinuationPrompt] or [SQLContinuationPrompt], then spaces or
// nothing, or a SQL client's continuation prompt (sqlClientContinuation),
// returned whole.
func continuationLine(line string) string {
	for _, p := range []string{REPLContinuationPrompt, SQLContinuationPrompt} {
		if rest, ok := strings.CutPrefix(line, p); ok && strings.Trim(rest, " ") == "" {
			return p
		}
	}
	if len(line) <= maxPromptLine && sqlClientContinuation.MatchString(line) {
		return line
	}
	return ""
}
