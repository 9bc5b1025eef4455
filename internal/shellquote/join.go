package shellquote

import "strings"

// Join quotes every word of argv with [Quote] and joins them with spaces:
// a command line that a POSIX shell splits back into argv, whatever the
// words are.
func Join(argv []string) string { return join(argv, false) }

// JoinBare is [Join] for a line a person reads: a word made only of
// characters no shell treats specially (letters, digits and -_./:=,+@%)
// is left bare, except a first word that a shell would parse as syntax (a
// reserved word such as "done", an assignment such as "a=b"). A POSIX
// shell, and ptysession.SplitCommand, split the line back into argv.
func JoinBare(argv []string) string { return join(argv, true) }

func join(argv []string, bare bool) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if bare && plain(a) && (i > 0 || !syntax(a)) {
			q[i] = a
		} else {
			q[i] = Quote(a)
		}
	}
	return strings.Join(q, " ")
}

// plain reports whether s is a non-empty word of characters no shell
// treats specially.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("-_./:=,+@%", c) >= 0:
		default:
			return false
		}
	}
	return s != ""
}

// syntax reports whether a plain word in command position is syntax to a
// shell: an assignment, or a reserved word of POSIX sh or bash.
func syntax(w string) bool {
	if strings.Contains(w, "=") {
		return true
	}
	switch w {
	case "case", "do", "done", "elif", "else", "esac", "fi", "for", "if", "in", "then", "until", "while", "function", "select", "time", "coproc":
		return true
	}
	return false
}
