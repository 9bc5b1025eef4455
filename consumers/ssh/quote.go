package ssh

import "strings"

// ShellQuote quotes s for a POSIX shell with single quotes, so that the
// shell reads it back as exactly s: every byte stands for itself, and a
// single quote becomes '\”. The empty string becomes ”. Strings made only
// of characters that are never special (letters, digits and -_./:,+@)
// are returned unchanged.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		if !isShellSafe(s[i]) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func isShellSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-_./:,+@", c) >= 0
}

// ShellJoin quotes each element of argv with ShellQuote and joins them with
// spaces: a command line that a POSIX shell splits back into argv.
func ShellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = ShellQuote(a)
	}
	return strings.Join(q, " ")
}
