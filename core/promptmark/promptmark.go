// Package promptmark owns the shell prompt-marker protocol (OSC 133, "shell
// integration") as ptyseam speaks it: the markers a marked shell prints,
// the bash settings that make it print them, and the parser that reads
// them back out of a terminal's output.
//
// A marked prompt is PromptStart, the prompt text, then PromptEnd: the
// shell waits for input after it. Before every prompt the shell prints a
// command-end marker, OSC 133;D;<status>;line=<LINENO>;inq=<0|1>;pid=<$$>:
// the previous command's exit status, the count of input lines the shell
// has read, whether more typed input was already waiting (read -t 0, a
// select(2) on the terminal), and which shell printed it (a bash started
// in the session marks its prompts too, with a count of its own). The
// service settles a send only on a prompt printed after the shell read
// the send's last line (docs/core.md).
package promptmark

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/ptyseam/ptyseam/internal/shellquote"
)

// The markers, as a marked shell prints them (BEL-terminated OSC).
const (
	// PromptStart begins a prompt (OSC 133;A).
	PromptStart = "\x1b]133;A\x07"
	// PromptEnd ends a prompt: the shell waits for input (OSC 133;B).
	PromptEnd = "\x1b]133;B\x07"
	// ContinuationStart begins the shell's continuation prompt (PS2,
	// printed while a command is incomplete: an open quote, bracket or
	// here-document), OSC 133;P;k=s, the secondary-prompt mark of other
	// terminals' shell integration. It is not a prompt end: the shell
	// waits for the rest of a command, and no send settles on it.
	ContinuationStart = "\x1b]133;P;k=s\x07"
)

// CommandEnd returns the marker that ends a command with exit status code
// (OSC 133;D;code), without the line and inq options.
func CommandEnd(code int) string {
	return "\x1b]133;D;" + strconv.Itoa(code) + "\x07"
}

// The markers as bash prompt text: escapes bash expands, bracketed as
// printing nothing (\[ \]).
const (
	ps1Start = `\[\e]133;A\a\]`
	ps1End   = `\[\e]133;B\a\]`
	ps2Start = `\[\e]133;P;k=s\a\]`
)

// Bash settings that make a shell print the markers. PS1 brackets the
// prompt with PromptStart and PromptEnd; PS2 starts bash's usual "> "
// with ContinuationStart; PromptCommand prints the command-end marker
// with its options before every prompt, then marks a PS1 or PS2 the user
// set since (`PS1='$ '`, to save bytes) as these are, so that prompts
// still settle sends and report exit codes. Bash keeps $? across
// PROMPT_COMMAND, so the user's $? is unchanged.
const (
	PS1           = ps1Start + `\w\$ ` + ps1End
	PS2           = ps2Start + `> `
	PromptCommand = `__ptyseam_s=$?; read -t 0 && __ptyseam_q=1 || __ptyseam_q=0; ` +
		`printf "\033]133;D;%s;line=%s;inq=%s;pid=%s\007" "$__ptyseam_s" "$LINENO" "$__ptyseam_q" "$$"; ` +
		`case $PS1 in *'133;B'*) ;; *) PS1='` + ps1Start + `'$PS1'` + ps1End + `';; esac; ` +
		`case $PS2 in *'133;P'*) ;; *) PS2='` + ps2Start + `'$PS2;; esac`
)

// Install returns the command line that makes an already running bash (a
// remote login shell) mark its prompts: type it into the shell once.
func Install() string {
	return "PS1=" + shellquote.Quote(PS1) + "; PS2=" + shellquote.Quote(PS2) + "; PROMPT_COMMAND=" + shellquote.Quote(PromptCommand)
}

// ContainsPromptEnd reports whether raw terminal output holds a prompt-end
// marker, whatever terminates it (BEL or ST).
func ContainsPromptEnd(raw []byte) bool {
	return bytes.Contains(raw, []byte(strings.TrimSuffix(PromptEnd, "\x07")))
}

// Marker is one marker read back by Parse.
type Marker struct {
	Kind         byte // 'A' prompt start, 'B' prompt end, 'C' command start, 'D' command end, 'P' continuation prompt start
	Exit         int  // a D marker's exit status, when ExitValid
	ExitValid    bool
	Line         int64 // a D marker's line=N (input lines the shell read, N >= 0), when LineValid
	LineValid    bool
	InputPending bool  // a D marker's inq=1: typed input waited as the shell came back
	Shell        int64 // a D marker's pid=N (the shell's process id, N > 0), or 0
}

// Parse reads a complete OSC payload (the bytes between ESC ] and the
// terminator) of the form "133;K[;arg[;opts]]". ok is false for any other
// OSC. A D marker's arg is its exit status; opts are ';'-separated
// key=value options (line, inq and pid; others are ignored).
func Parse(payload []byte) (m Marker, ok bool) {
	rest, found := bytes.CutPrefix(payload, []byte("133;"))
	if !found || len(rest) == 0 {
		return Marker{}, false
	}
	m.Kind, rest = rest[0], rest[1:]
	if len(rest) > 0 {
		if rest[0] != ';' {
			return Marker{}, false
		}
		rest = rest[1:]
	}
	arg, opts, _ := bytes.Cut(rest, []byte(";"))
	if m.Kind != 'D' {
		return m, true
	}
	if n, err := strconv.Atoi(string(arg)); err == nil {
		m.Exit, m.ExitValid = n, true
	}
	for len(opts) > 0 {
		var opt []byte
		opt, opts, _ = bytes.Cut(opts, []byte(";"))
		key, val, _ := bytes.Cut(opt, []byte("="))
		switch string(key) {
		case "line":
			if n, err := strconv.ParseInt(string(val), 10, 64); err == nil && n >= 0 {
				m.Line, m.LineValid = n, true
			}
		case "inq":
			m.InputPending = string(val) == "1"
		case "pid":
			if n, err := strconv.ParseInt(string(val), 10, 64); err == nil && n > 0 {
				m.Shell = n
			}
		}
	}
	return m, true
}
