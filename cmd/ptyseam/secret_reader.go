package main

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// secretReader is who would read a secret typed into a session: what the
// person is shown on the secret page, and what must still read when the
// secret is typed.
type secretReader struct {
	Session  core.SessionID
	Name     string // the session's name, "" when none
	Command  string // the session's top-level command
	Programs []core.ReaderProgram
}

// readersOf keeps the programs blocked reading the terminal, or the whole
// group when none is (the program is between two reads).
func readersOf(r core.TerminalReader) []core.ReaderProgram {
	var out []core.ReaderProgram
	for _, p := range r.Programs {
		if p.Reading {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return r.Programs
	}
	return out
}

// describeSecretReader describes who reads session id's terminal now.
func describeSecretReader(svc *core.Service, owner *core.Owner, id core.SessionID) (secretReader, error) {
	info, err := svc.Info(owner, id)
	if err != nil {
		return secretReader{}, err
	}
	r, err := svc.Reader(owner, id)
	if err != nil {
		return secretReader{}, err
	}
	return secretReader{Session: id, Name: info.Name, Command: quoteArgv(info.Command), Programs: readersOf(r)}, nil
}

// same reports whether r and o name the same programs.
func (r secretReader) same(o secretReader) bool {
	return slices.EqualFunc(r.Programs, o.Programs, func(a, b core.ReaderProgram) bool {
		return a.PID == b.PID && a.Exe == b.Exe && slices.Equal(a.Argv, b.Argv)
	})
}

// Shells: a shell's own read (read -s) hands what it reads to the
// commands typed into the shell, which the model wrote.
var secretShells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "ksh93": true, "mksh": true, "ash": true,
	"yash": true, "fish": true, "csh": true, "tcsh": true, "busybox": true, "pwsh": true, "nu": true, "elvish": true, "xonsh": true,
}

// Interpreters and the flags that give them code on the command line.
var secretInlineCode = map[string][]string{
	"python": {"-c"}, "perl": {"-e", "-E"}, "ruby": {"-e"}, "node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"php": {"-r"}, "lua": {"-e"}, "awk": {}, "gawk": {}, "mawk": {}, "tclsh": {}, "deno": {"eval"}, "bun": {"-e", "--eval"},
}

// refusal returns why a secret must not be typed for r ("" when it may):
// the reader is a shell, or an interpreter running code given on its
// command line. Both are code the model typed a moment ago; a program
// like sudo, ssh or gpg asks for a secret for its own use. This is a
// tripwire, not a proof: see SECURITY.md for what it does not stop.
func (r secretReader) refusal() string {
	if len(r.Programs) == 0 {
		return "no program reads the terminal"
	}
	for _, p := range r.Programs {
		name := programName(p)
		switch {
		case secretShells[name]:
			return "the program that reads it is a shell (" + quoteArgv(p.Argv) + "): a shell hands what it reads to the commands typed into it"
		case inlineCode(name, p.Argv):
			return "the program that reads it runs code given on its command line (" + quoteArgv(p.Argv) + ")"
		}
	}
	return ""
}

// programName is the name of p's executable without a version suffix
// (python3.12 -> python), falling back to argv[0].
func programName(p core.ReaderProgram) string {
	name := filepath.Base(p.Exe)
	if p.Exe == "" && len(p.Argv) > 0 {
		name = filepath.Base(p.Argv[0])
	}
	return strings.TrimRight(name, "0123456789.")
}

// inlineCode reports whether argv runs name as an interpreter of code on
// its command line. For awk-like programs the program text is always on
// the command line unless given with -f.
func inlineCode(name string, argv []string) bool {
	flags, ok := secretInlineCode[name]
	if !ok {
		return false
	}
	if len(flags) == 0 {
		return !slices.Contains(argv, "-f")
	}
	for _, a := range argv[min(1, len(argv)):] {
		if slices.Contains(flags, a) {
			return true
		}
		// Grouped short flags ending in the code flag: python -Sc, perl -ne.
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			for _, f := range flags {
				if len(f) == 2 && strings.ContainsRune(a[1:], rune(f[1])) {
					return true
				}
			}
		}
	}
	return false
}

// quoteArgv shows a command line as a shell would take it.
func quoteArgv(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = strconv.Quote(a)
	}
	return strings.Join(out, " ")
}
