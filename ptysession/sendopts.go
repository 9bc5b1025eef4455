package ptysession

import (
	"strings"
)

// omitEcho removes the lines that echo data (the typed command line, and
// each further line of a multi-line send, whose output may come between
// them) from out: for each line of data in turn, the next completed line
// of out that ends with it (after a prompt such as "$ " or "> "), runs of
// blanks counted as one (readline shows a tab as the spaces to the next
// tab stop). A line that readline redrew with only its end visible counts
// when it is the end of the data line (at least 16 bytes). Lines of data
// without an echo (the terminal's echo was off) leave out as it is.
func omitEcho(out, data string) string {
	want := strings.Split(strings.TrimRight(strings.ReplaceAll(data, "\r", "\n"), "\n"), "\n")
	if len(want) == 0 || strings.TrimSpace(want[0]) == "" {
		return out
	}
	lines := strings.SplitAfter(out, "\n")
	echoes := func(line, typed string) bool {
		line = oneBlank(strings.TrimRight(line, " \t\r\n"))
		typed = oneBlank(strings.TrimRight(typed, " \t"))
		return strings.HasSuffix(line, typed) || (len(line) >= 16 && strings.HasSuffix(typed, strings.TrimLeft(line, " ")))
	}
	drop := make([]bool, len(lines))
	next := 0
	for _, typed := range want {
		if strings.TrimSpace(typed) == "" {
			continue // an empty line echoes as a bare prompt: too vague to match
		}
		found := false
		for i := next; i < len(lines); i++ {
			if strings.HasSuffix(lines[i], "\n") && echoes(lines[i], typed) {
				drop[i], next, found = true, i+1, true
				break
			}
		}
		if !found {
			break
		}
	}
	var b strings.Builder
	for i, line := range lines {
		if !drop[i] {
			b.WriteString(line)
		}
	}
	return b.String()
}

// oneBlank returns s with each run of spaces and tabs made one space.
func oneBlank(s string) string {
	if !strings.ContainsAny(s, "\t") && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' }), " ")
}

// omitPrompt removes the unterminated last line of out (the shell's
// prompt, for a send that settled on it).
func omitPrompt(out string) string {
	return out[:strings.LastIndexByte(out, '\n')+1]
}
