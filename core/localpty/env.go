package localpty

import (
	"os"
	"strings"

	"github.com/ptyseam/ptyseam/internal/shellquote"
)

// Prompt marker settings of the "shell" type. PS1 brackets the prompt with
// OSC 133;A and OSC 133;B (the B marker ends it, so the service knows the
// shell waits for input) and PROMPT_COMMAND prints, before every prompt,
// OSC 133;D;<status>;line=<LINENO>;inq=<0|1>: the previous command's exit
// status, the count of input lines the shell has read, and whether more
// typed input is already waiting (read -t 0, a select(2) on the terminal).
// The service settles a send only on a prompt printed after the shell read
// the send's last line (see docs/core.md). Bash keeps $? across
// PROMPT_COMMAND, so the user's $? is unchanged.
const (
	ShellPS1           = `\[\e]133;A\a\]\w\$ \[\e]133;B\a\]`
	ShellPromptCommand = `__ptyseam_s=$?; read -t 0 && __ptyseam_q=1 || __ptyseam_q=0; ` +
		`printf "\033]133;D;%s;line=%s;inq=%s\007" "$__ptyseam_s" "$LINENO" "$__ptyseam_q"`
)

// shellPagers neutralise the pagers that would wait for a key: the shell
// type's programs print everything and return to the prompt.
var shellPagers = []string{"PAGER=cat", "GIT_PAGER=cat", "SYSTEMD_PAGER=cat", "MANPAGER=cat"}

// shellOnce turns history expansion off before the shell reads its first
// line, whatever flags the shell was started with (a deployer may choose
// them): the prompt command runs before every prompt, this part only once
// per shell. It follows the marker, which must see the command's $? first.
const shellOnce = `[ -n "$__ptyseam_once" ] || { set +H; __ptyseam_once=1; }`

// shellEnv is what the "shell" type adds to the environment.
func shellEnv() []string {
	env := []string{
		"PS1=" + ShellPS1,
		"PROMPT_COMMAND=" + ShellPromptCommand + "; " + shellOnce,
		"HISTFILE=",
	}
	return append(env, shellPagers...)
}

// ShellSetup returns a command line that gives an already running bash
// (a remote login shell) what the "shell" type gives its own: history
// expansion off (set +H, so "!" in a command is literal), the pagers
// neutralised, and the prompt marker. Type it into the shell once.
func ShellSetup() string {
	return "set +H; export " + strings.Join(shellPagers, " ") +
		"; PS1=" + shellquote.Quote(ShellPS1) + "; PROMPT_COMMAND=" + shellquote.Quote(ShellPromptCommand)
}

// buildEnv returns the program's environment: the service process's
// environment, then TERM, then the type's extras, then the request's
// variables, then the session marker. Later entries win (os/exec keeps the
// last value of a repeated name), so a request may override TERM or PAGER
// (overriding PS1 or PROMPT_COMMAND removes the prompt marker) but never
// the marker.
func buildEnv(term string, extra, req []string, marker string) []string {
	base := os.Environ()
	env := make([]string, 0, len(base)+len(extra)+len(req)+2)
	env = append(env, base...)
	env = append(env, "TERM="+term)
	env = append(env, extra...)
	env = append(env, req...)
	env = append(env, MarkerEnv+"="+marker)
	return env
}
