package shellquote

import (
	"slices"
	"strings"
)

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

const plainChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%"

// reserved are the reserved words of POSIX sh and bash made of plain
// characters.
var reserved = strings.Fields("case do done elif else esac fi for if in then until while function select time coproc")

func join(argv []string, bare bool) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		plain := a != "" && strings.Trim(a, plainChars) == ""
		if bare && plain && (i > 0 || !strings.Contains(a, "=") && !slices.Contains(reserved, a)) {
			q[i] = a
		} else {
			q[i] = Quote(a)
		}
	}
	return strings.Join(q, " ")
}
