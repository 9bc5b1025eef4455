package jobtools

import (
	"encoding/json"
	"strings"
)

// shellSyntax are the characters that make a command line the shell's to
// read (quotes, pipes, redirections, variables, globs, separators), not a
// list of words to split on spaces.
const shellSyntax = "'\"\\|&;<>()$`*?[]{}~#!="

// maxHintLine bounds the command line a hint repeats (twice).
const maxHintLine = 1 << 10

// commandLineHint is the next step for a bg_launch whose command did not
// start and holds spaces: a model passed a whole command line as the
// program's name. It gives the call to make instead: the words as args
// when the line is plain words, else the line run by sh -c. It returns ""
// when command holds no space or args were given too (the command is then
// meant as one name).
func commandLineHint(command string, args []string) string {
	line := strings.TrimSpace(command)
	if len(args) > 0 || !strings.ContainsAny(line, " \t") {
		return ""
	}
	if len(line) > maxHintLine {
		// Not repeated back: a hint is bounded whatever the caller sent.
		return `command is one program's name and args its arguments; for a command line, call bg_launch with {"command":"sh","args":["-c","<the line>"]}.`
	}
	type call struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	viaShell := asJSON(call{Command: "sh", Args: []string{"-c", line}})
	if strings.ContainsAny(line, shellSyntax) {
		return "command is one program's name, and this is a command line for a shell: call bg_launch with " +
			viaShell + " (other fields as before)."
	}
	words := strings.Fields(line)
	split := asJSON(call{Command: words[0], Args: words[1:]})
	return "command is one program's name and args its arguments: call bg_launch with " + split +
		" (other fields as before), or with " + viaShell + " to have a shell read the line."
}

// asJSON renders v as the JSON a model would pass, with & < > as they are.
func asJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}
