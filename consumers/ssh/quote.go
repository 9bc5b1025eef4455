package ssh

import "github.com/ptyseam/ptyseam/internal/shellquote"

// ShellJoin quotes each element of argv for a POSIX shell (every word, so
// that a program named like a reserved word still runs) and joins them
// with spaces: a command line that a POSIX shell splits back into argv.
func ShellJoin(argv []string) string { return shellquote.Join(argv) }
