package ptysession

import (
	"sort"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/shellquote"
)

// ShellQuote quotes s for a POSIX shell with single quotes: the result is
// one word whose value is s byte for byte (a single quote becomes the four characters ' \ ' ').
// Use it where the text reaches the shell's parser directly (an ssh exec
// command, a script). Text typed into an interactive terminal also passes
// the terminal's line discipline and the shell's line editor, which act on
// control characters; [QuoteEnv] handles that. s must not contain NUL,
// which no shell word can hold.
func ShellQuote(s string) string { return shellquote.Quote(s) }

// QuoteEnv returns a POSIX shell statement that exports name with value,
// safe to type into an interactive shell on a terminal.
//
// A value of printable ASCII (space to tilde) is exported as
// `export NAME='value'` (see [ShellQuote]). Any other value (control
// characters such as a tab, which the terminal or the line editor would act
// on, and bytes of 0x80 and above, which a line editor in the C locale
// rewrites) is spelled in printable ASCII with POSIX printf octal escapes
// in a plain assignment, `NAME=$(printf '\303\251\011x'); export NAME`;
// trailing newlines, which a command substitution would strip, follow it
// typed inside single quotes (`NAME=$(printf 'a')'<newline>'; export
// NAME`), the only case where the statement holds a byte outside printable
// ASCII. A leading '-' is escaped too, so that printf never takes the
// format for an option. Either way the program sees value byte for byte. (No parameter
// expansion such as ${NAME%x} is used: bash 5.2 returns garbage for it on
// invalid UTF-8 in a UTF-8 locale.)
//
// It returns an INVALID_ARGUMENT error for a name that does not match
// [A-Za-z_][A-Za-z0-9_]* or a value that contains NUL.
func QuoteEnv(name, value string) (string, error) {
	if err := checkEnv(name, value); err != nil {
		return "", err
	}
	if printableASCII(value) {
		return "export " + name + "=" + ShellQuote(value), nil
	}
	body := strings.TrimRight(value, "\n")
	newlines := len(value) - len(body)
	var b strings.Builder
	b.WriteString(name)
	b.WriteString("=$(printf '")
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '%':
			b.WriteString("%%")
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\'' || c < 0x20 || c > 0x7e || (i == 0 && c == '-'):
			b.WriteByte('\\')
			b.WriteByte('0' + c>>6)
			b.WriteByte('0' + c>>3&7)
			b.WriteByte('0' + c&7)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("')")
	if newlines > 0 {
		b.WriteString("'" + strings.Repeat("\n", newlines) + "'")
	}
	b.WriteString("; export " + name)
	return b.String(), nil
}

// ExportLine returns one line of `export` statements (see [QuoteEnv]) for
// env, in name order, joined by "; ". It returns "" for an empty env.
func ExportLine(env map[string]string) (string, error) {
	names := make([]string, 0, len(env))
	for n := range env {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		st, err := QuoteEnv(n, env[n])
		if err != nil {
			return "", err
		}
		parts = append(parts, st)
	}
	return strings.Join(parts, "; "), nil
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// validateEnv checks env's names and values and returns it as sorted
// NAME=VALUE entries. Its size is checked where it is used: by the
// service's spawn, or before it is typed as exports.
func validateEnv(env map[string]string) ([]string, error) {
	names := make([]string, 0, len(env))
	for n := range env {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, n := range names {
		if err := checkEnv(n, env[n]); err != nil {
			return nil, err
		}
		out = append(out, n+"="+env[n])
	}
	return out, nil
}

// checkEnv checks one environment variable: a valid name, no NUL.
func checkEnv(name, value string) error {
	if !core.ValidEnvName(name) {
		return &core.Error{Code: core.CodeInvalidArgument, Msg: "env: invalid variable name " + core.QuoteForMsg(name) + " (want [A-Za-z_][A-Za-z0-9_]*)"}
	}
	if strings.IndexByte(value, 0) >= 0 {
		return &core.Error{Code: core.CodeInvalidArgument, Msg: "env." + name + ": the value contains a NUL byte"}
	}
	return nil
}
