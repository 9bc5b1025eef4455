package gdbmi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// SetArgs sets the arguments of the next run: the program receives
// exactly args as its argv (after its name), byte for byte, with no shell
// expansion, splitting or command execution ([Options.Args] does the same
// at Start). With no args the program runs without arguments.
func (c *Client) SetArgs(ctx context.Context, args ...string) error {
	if err := checkArgs(args); err != nil {
		return err
	}
	cmd := setArgsCommand(args)
	_, err := c.Exec(ctx, cmd[0], cmd[1:]...)
	return err
}

// ErrInvalidArgs is returned (wrapped) for program arguments no argv can
// carry: an argument holding a NUL byte, which would end it early.
var ErrInvalidArgs = errors.New("gdbmi: invalid program arguments")

// checkArgs refuses arguments holding a NUL byte.
func checkArgs(args []string) error {
	for i, a := range args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("%w: argument %d holds a NUL byte (argv strings end at NUL; pass the data another way)", ErrInvalidArgs, i)
		}
	}
	return nil
}

// setArgsCommand is the MI command that sets argv. "set args" stores its
// text for the startup shell as it is; each word is single-quoted (see
// [shellWords]), and it goes through the console as a c-string so that a
// newline in an argument survives the one-line MI command. (gdb's own
// -exec-arguments hands its raw text to "set args", and with
// startup-with-shell off gdb splits arguments at blanks with no quoting,
// so neither can carry every argv.)
func setArgsCommand(args []string) []string {
	return []string{"-interpreter-exec", "console", "set args " + shellWords(args)}
}

// startupShell is the shell gdb starts the program through (gdb runs
// "$SHELL -c 'exec program args'"). The client sets SHELL to it in gdb's
// environment so that the quoting of [shellWords] is the quoting that
// shell reads, whatever the user's login shell is; the program's own
// environment gets the original SHELL back.
const startupShell = "/bin/sh"

// shellWords renders argv for a POSIX shell: every word in single quotes,
// and a single quote inside a word closes the quotes, adds an escaped
// quote and reopens them:
//
//	it's -> 'it'\''s'
//
// Inside single quotes a POSIX shell takes every byte literally (blanks,
// $, `, ", \, ;, |, *, newlines, UTF-8), so the program receives exactly
// argv; an empty word stays an empty argument.
func shellWords(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(a, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

// gdbEnv returns gdb's extra environment: env with SHELL set to
// startupShell (a SHELL in env is for the program; see programShell).
func gdbEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, e := range env {
		if !strings.HasPrefix(e, "SHELL=") {
			out = append(out, e)
		}
	}
	return append(out, "SHELL="+startupShell)
}

// programShell returns the SHELL the program should see: the last SHELL
// in env (the request's variables), else the service's own, and whether
// there is one.
func programShell(env []string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "SHELL="); ok {
			return v, true
		}
	}
	return os.LookupEnv("SHELL")
}
