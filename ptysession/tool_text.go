package ptysession

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// The text renderings the pty tools give a model: a bracketed summary line,
// then the output as is. They are exported so that an adapter that calls
// the facade itself (an agent toolkit's tools) returns to its model the
// text the pty_* tools and the MCP server return for the same result.

// RenderOpen renders an open for a model (pty_open's text):
// "[session pty_… opened, pid 123; settled: prompt; command exit code 0]"
// and the initial output, or "(no output)". The session's status is named
// when it is not running ("; exited 0").
func RenderOpen(r OpenResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[session %s opened", r.SessionID)
	if r.PID > 0 {
		fmt.Fprintf(&b, ", pid %d", r.PID)
	}
	if r.Status.Kind != core.StatusRunning {
		fmt.Fprintf(&b, "; %s", r.Status)
	}
	if r.WaitReason != "" {
		fmt.Fprintf(&b, "; settled: %s", r.WaitReason)
	}
	if r.ExitCode != nil {
		b.WriteString("; " + ExitCodeNote(*r.ExitCode))
	}
	if r.Truncated {
		b.WriteString(cutNote(r.Cut, -1, "older output cut"))
	}
	b.WriteString("]\n")
	writeOutput(&b, r.InitialOutput)
	return b.String()
}

// ExitCodeNote is a summary's note of a command's exit code: "command
// exit code 1", and for a code a shell gives a command a signal killed
// (128 plus the signal's number, among the numbers every Unix shares) the
// signal's name: "command exit code 139 (SIGSEGV)".
func ExitCodeNote(code int) string {
	note := "command exit code " + strconv.Itoa(code)
	if name, ok := exitSignals[code-128]; ok {
		note += " (" + name + ")"
	}
	return note
}

// exitSignals names the signals whose numbers Linux, macOS and the BSDs
// share.
var exitSignals = map[int]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
	8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
}

// hiddenInputNote is what a send's or a wait's summary says when the
// program reads a hidden line (a password): the next send is typed there.
const hiddenInputNote = "the prompt hides input (a password): what you send next is typed into it, unseen"

// RenderSend renders a send for a model (pty_send's text): the summary
// "[prompt; command exit code 0]" (and "; session exited 0" once the
// session is no longer running) with the notes the
// result calls for (the busy program holding the terminal and the input
// waiting unread, an incomplete command or statement, a silence on a
// remote shell whose reads cannot be seen, what was cut), a person's hand
// back, then the delta, or "(no output)".
func RenderSend(r SendResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s", r.WaitReason)
	if r.ExitCode != nil {
		b.WriteString("; " + ExitCodeNote(*r.ExitCode))
	}
	if f := r.Foreground; f != nil {
		b.WriteString("; " + ForegroundNote(r.WaitReason, f))
	}
	if r.Continuation {
		b.WriteString("; " + continuationNoteFor(r))
	}
	if r.InputNote != "" {
		b.WriteString("; " + r.InputNote)
	}
	if r.InputHidden {
		b.WriteString("; " + hiddenInputNote)
	}
	if r.SilenceNote != "" {
		b.WriteString("; " + r.SilenceNote)
	}
	if r.CommandLine != "" {
		b.WriteString("; " + CommandLineNote(r.CommandLine))
	}
	if r.Status.Kind != core.StatusRunning {
		fmt.Fprintf(&b, "; session %s", r.Status)
	}
	if r.Truncated {
		b.WriteString(cutNote(r.Cut, r.Skipped, fmt.Sprintf("%d older lines cut", r.Skipped)))
	}
	b.WriteString("]\n")
	if h := r.HandBack; h != nil {
		fmt.Fprintf(&b, "[%s was in control of this session for %.1fs and handed it back; meanwhile the terminal printed:]\n", h.Person, float64(h.HeldMs)/1000)
		writeOutput(&b, h.Output)
		if !strings.HasSuffix(h.Output, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("[the output of your send follows]\n")
	}
	writeOutput(&b, r.Delta)
	return b.String()
}

// RenderTail renders a tail for a model (pty_tail's text):
// "[3 new lines; 40 older lines skipped]" and the text, or
// "[no new output]".
func RenderTail(r TailResult) string {
	var b strings.Builder
	switch {
	case r.Text == "" && !r.Truncated:
		return "[no new output]"
	case r.Truncated:
		fmt.Fprintf(&b, "[%s%s]\n", plural(r.Lines, "new line"), cutNote(r.Cut, r.Skipped, fmt.Sprintf("%d older lines skipped", r.Skipped)))
	default:
		fmt.Fprintf(&b, "[%s]\n", plural(r.Lines, "new line"))
	}
	b.WriteString(r.Text)
	return b.String()
}

// RenderClose renders a close of the session called id (its id or its
// name) for a model (pty_close's text): "session ID closed" or "session ID
// was already closed".
func RenderClose(id string, r CloseResult) string {
	if r.Closed {
		return "session " + id + " closed"
	}
	return "session " + id + " was already closed"
}

// RenderList renders a list for a model (pty_list's text): a headline
// naming every session with its status ("[2 sessions: pty_a running,
// pty_b exited 0]"), then one line per session (id, type, pid, status,
// lines, name); or "no open sessions".
func RenderList(r ListResult) string {
	if len(r.Sessions) == 0 {
		return "no open sessions"
	}
	// The first line (the headline a structured result carries alone)
	// names every session, so that it never reads as a list of one.
	var b strings.Builder
	fmt.Fprintf(&b, "[%s:", plural(len(r.Sessions), "session"))
	for i, s := range r.Sessions {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %s", s.ID, s.Status)
	}
	b.WriteString("]\n")
	for _, s := range r.Sessions {
		fmt.Fprintf(&b, "%s  %s", s.ID, s.Type)
		if s.PID > 0 {
			fmt.Fprintf(&b, "  pid %d", s.PID)
		}
		fmt.Fprintf(&b, "  %s  %s", s.Status, plural(int(s.TotalLines), "line"))
		if s.Name != "" {
			fmt.Fprintf(&b, "  %q", s.Name)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// RenderRead renders a page for a model (pty_read's text): "[lines 0-9 of
// 40; page on from 10]" and the lines.
func RenderRead(r ReadResult) string {
	var b strings.Builder
	switch {
	case r.Lines == 0 && r.Dropped > 0 && r.First < r.Total:
		fmt.Fprintf(&b, "[no longer kept: the %s asked for; the session keeps lines %d-%d (its newest): start at %d for the oldest]\n",
			plural(int(r.Dropped), "line"), r.First, r.Total-1, r.First)
	case r.Lines == 0:
		fmt.Fprintf(&b, "[no lines at %d; %s in total]\n", r.Start, plural(int(r.Total), "line"))
	default:
		fmt.Fprintf(&b, "[lines %d-%d of %d", r.Start, r.End-1, r.Total)
		if r.Dropped > 0 {
			fmt.Fprintf(&b, "; %d requested lines no longer retained", r.Dropped)
		}
		if r.LineCut > 0 {
			fmt.Fprintf(&b, "; line %d is %d bytes, longer than a page: its first %d cut, its end shown", r.Start, r.LineCut+int64(len(strings.TrimSuffix(r.Text, "\n"))), r.LineCut)
		}
		if r.End < r.Total {
			fmt.Fprintf(&b, "; page on from %d", r.End)
		}
		b.WriteString("]\n")
	}
	b.WriteString(r.Text)
	return b.String()
}

// RenderSignal renders a signal to the session called id for a model
// (pty_signal's text): what was delivered to which process group
// ("[SIGINT delivered to process group 123]"), or typed as its key to a
// program that reads the terminal raw, whether the group ignores it and
// which program still holds the terminal, then the output that followed,
// or "(no output followed)".
func RenderSignal(id string, r SignalResult) string {
	if !r.Delivered {
		return fmt.Sprintf("[%s was not delivered to session %s]", r.Signal, id)
	}
	s := "[" + string(r.Signal) + " delivered"
	if r.Raw {
		s = "[" + string(r.Signal) + " typed as its key (" + signalKeys[r.Signal] + ")"
	}
	if r.TargetPGID > 0 {
		s += fmt.Sprintf(" to process group %d", r.TargetPGID)
		if r.Leader {
			s += ", the session's shell"
		}
		if r.Leader && r.Signal == "SIGHUP" {
			s += "; a hangup ends the shell, and the session's program with it"
		}
	}
	switch {
	case r.Raw && r.TargetPGID > 0:
		s += ", which reads the terminal raw (an editor, a REPL's line editor, an ssh client) and handles the key itself"
	case r.Raw:
		s += ": the program holding the terminal reads it raw (an editor, a REPL's line editor, an ssh client) and handles the key itself"
	}
	if r.Ignored {
		s += fmt.Sprintf("; every process in it ignores %s, so nothing changed", r.Signal)
	}
	if f := r.Foreground; f != nil {
		name := f.Name
		if name == "" {
			name = "a program"
		}
		s += fmt.Sprintf("; %s (pgid %d) still holds the terminal and runs", name, f.Group)
		switch r.Signal {
		case core.SIGKILL:
		case core.SIGTERM:
			s += "; pty_signal SIGKILL ends it"
		default:
			s += "; pty_signal SIGTERM, or SIGKILL, ends it"
		}
	}
	if r.Note != "" {
		s += "; " + r.Note
	}
	if r.Truncated {
		s += "; older output cut"
	}
	s += "]"
	if r.Output == "" {
		return s + "\n(no output followed)"
	}
	return s + "\n" + r.Output
}

// signalKeys names the keys a terminal types for the signals that have
// one.
var signalKeys = map[core.Signal]string{core.SIGINT: "Ctrl-C", core.SIGQUIT: `Ctrl-\`, core.SIGTSTP: "Ctrl-Z"}

func writeOutput(b *strings.Builder, out string) {
	if out == "" {
		b.WriteString("(no output)")
		return
	}
	b.WriteString(out)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// continuationNote tells a model that the shell reads the rest of an
// incomplete command (core.SendResult.Continuation): a model that typed an
// unbalanced quote saw only "> " and typed its next commands into it.
const continuationNote = `the command is incomplete (an open quote, bracket or here-document) and the shell waits for its rest at its "> " prompt: what you send next becomes part of it; finish it, or pty_signal SIGINT to abandon it`

// replContinuationNote tells a model that a REPL reads the rest of an
// incomplete statement at its "... " prompt: a model that sent a Python
// function without the empty line that ends it sent its next statement
// into the block and got a SyntaxError. Node's REPL ends a block at its
// closing bracket alone: an empty line there only prints "... " again.
const replContinuationNote = `the statement is incomplete and the program waits for its rest at its "... " prompt: a Python block ends with an empty line (send ""), a Node one with its closing bracket; more lines continue it, pty_signal SIGINT abandons it`

// sqlContinuationNote tells a model that sqlite3 (or jshell, whose
// continuation prompt is the same) reads the rest of a statement at its
// "...>" prompt: a model that left out sqlite3's ";" sent its next
// statement into the same one, and an interrupt does not clear it there;
// jshell's statement ends once its brackets close.
const sqlContinuationNote = `the statement is incomplete and the program waits for its rest at its "...>" prompt: what you send next becomes part of it; sqlite3 ends it at ";" (send ";": a broken statement then fails and is dropped), jshell once its brackets and quotes close`

// sqlClientContinuationNote tells a model that psql or mysql reads the
// rest of a statement at its continuation prompt ("postgres-# ",
// "    -> "): a model that left out the ";" sent its next statement, or
// psql's \q, into the same one.
const sqlClientContinuationNote = `the SQL statement is incomplete (no ";" yet, or an open quote or bracket, which the prompt shows) and the client waits for its rest: what you send next becomes part of it; send ";" to end it, after closing what is open; psql's \r and mysql's \c discard it`

// continuationNoteFor is the note for a send that left the program in an
// incomplete command (core.SendResult.Continuation): the REPL's,
// sqlite3's or a SQL client's when its continuation prompt ends the
// output, else the shell's.
func continuationNoteFor(r SendResult) string {
	switch p := core.ContinuationPrompt(r.WaitReason, r.Delta); p {
	case "":
		return continuationNote
	case core.REPLContinuationPrompt:
		return replContinuationNote
	case core.SQLContinuationPrompt:
		return sqlContinuationNote
	}
	return sqlClientContinuationNote
}

// CommandLineNote tells a model that text it typed with keys waits on the
// input line a shell or another program reads
// (core.SendResult.CommandLine): a model that types "q" to a pager that
// already quit would run "qls" with its next send.
func CommandLineNote(text string) string {
	if r := []rune(text); len(r) > 40 {
		text = string(r[:40]) + "…"
	}
	return fmt.Sprintf("%q waits on the input line, not entered: a pty_send types after it; pty_keys [\"C-u\"] clears it", text)
}

// ForegroundNote tells a model which program holds the terminal after a
// send (or keys) that settled for reason without the session's prompt or
// a read, and what became of the input it typed: a busy program reads it
// later (or the shell, once the program ended), and an interrupt discards
// it (a Ctrl-C typed as data or pty_signal's SIGINT: the terminal flushes
// its input queue), and whether the program ignores SIGINT, so that no
// interrupt ends it. On a remote prompt the program is the client (ssh,
// tmux, nc) of a shell or server that waits for its next command; a
// remote login's client that reads the terminal without such a prompt
// shows a program that has not come back to one.
func ForegroundNote(reason core.WaitReason, f *core.ForegroundProgram) string {
	name := f.Name
	if name == "" {
		name = "a program"
	}
	s := fmt.Sprintf("%s (pgid %d) holds the terminal", name, f.Group)
	switch {
	case reason == core.WaitRemotePrompt:
		s += "; the program it shows waits at its prompt"
	case f.Reading && f.RemoteLogin():
		s += "; the program it shows has not come back to a prompt (busy, or waiting for input without one)"
	case f.Reading:
		s += " and reads it"
	default:
		s += " and is busy"
	}
	if f.IgnoresInterrupt {
		s += "; it ignores SIGINT, so Ctrl-C does not end it: pty_signal SIGTERM, or SIGKILL, does"
	}
	switch {
	case f.UnreadInput == 1:
		s += "; 1 byte you typed waits unread in the terminal (the next read of it takes it; an interrupt discards it)"
	case f.UnreadInput > 1:
		s += fmt.Sprintf("; %d bytes you typed wait unread in the terminal (the next read of it takes them; an interrupt discards them)", f.UnreadInput)
	}
	return s
}

// RenderSearch is pty_search's text for a search for pattern.
func RenderSearch(pattern string, r SearchResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s matching %q", plural(len(r.Matches), "line"), pattern)
	if r.Dropped > 0 {
		fmt.Fprintf(&b, "; %d older lines no longer kept", r.Dropped)
	}
	if r.More {
		fmt.Fprintf(&b, "; more: search again from %d", r.Next)
	} else {
		fmt.Fprintf(&b, "; searched to the end (next %d)", r.Next)
	}
	b.WriteString("]\n")
	for _, m := range r.Matches {
		fmt.Fprintf(&b, "%d: %s\n", m.Line, m.Text)
	}
	return b.String()
}

// RenderWait is pty_wait's text for a wait on conds: "[condition 0
// fired after 3100 ms; line 9]" and the output, with the condition
// described when there were several ("...: output of pty_… matching
// "done"; line 9]"). Without conds (a wait on WaitRequest.Target alone)
// it says what happened: "[pty_… waits for input after 40 ms]",
// "[pty_… exited 0 after 900 ms]".
func RenderWait(r WaitResult, conds []WaitCondition) string {
	if !r.Fired {
		return fmt.Sprintf("[timeout after %d ms: no condition held; the programs keep running]", r.WaitedMs)
	}
	var b strings.Builder
	switch {
	case len(conds) == 0 && r.Kind == WaitExit && r.Status != nil:
		// A wait on a target alone (WaitRequest.Target).
		fmt.Fprintf(&b, "[%s %s after %d ms", r.Target, *r.Status, r.WaitedMs)
	case len(conds) == 0 && r.Kind == WaitInput:
		fmt.Fprintf(&b, "[%s waits for input after %d ms", r.Target, r.WaitedMs)
	default:
		fmt.Fprintf(&b, "[condition %d fired after %d ms", r.Condition, r.WaitedMs)
		if len(conds) > 1 {
			fmt.Fprintf(&b, ": %s", conds[r.Condition])
		}
		if r.Kind == WaitExit && r.Status != nil {
			fmt.Fprintf(&b, "; %s", *r.Status)
		}
	}
	if r.InputHidden {
		b.WriteString("; " + hiddenInputNote)
	}
	shown := r.Output != "" && strings.Contains(r.Output, r.Line)
	if r.LineNumber != nil && shown {
		fmt.Fprintf(&b, "; line %d", *r.LineNumber)
	}
	if r.Skipped > 0 {
		fmt.Fprintf(&b, "; %s of new output skipped, pty_read pages them", plural(int(r.Skipped), "older line"))
	}
	b.WriteString("]")
	if r.LineNumber != nil && !shown {
		fmt.Fprintf(&b, "\nline %d: %s", *r.LineNumber, r.Line)
	}
	if r.Output != "" {
		b.WriteString("\n")
		b.WriteString(r.Output)
	}
	if r.Row != nil {
		fmt.Fprintf(&b, "\nrow %d: %s", *r.Row, r.Line)
	}
	return b.String()
}
