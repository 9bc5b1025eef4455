package localpty

import (
	"os"
	"strings"

	"github.com/ptyseam/ptyseam/core/promptmark"
)

// shellPagers neutralise the pagers that would wait for a key: the shell
// type's programs print everything and return to the prompt.
var shellPagers = []string{"PAGER=cat", "GIT_PAGER=cat", "SYSTEMD_PAGER=cat", "MANPAGER=cat"}

// shellOnce turns history expansion off before the shell reads its first
// line, whatever flags the shell was started with (a deployer may choose
// them), and keeps the prompts to the shell: they come through the
// environment, and exported they would reach every program it starts (sh
// would print bash's prompt escapes as they are). The prompt command stays
// exported: only an interactive bash runs it, and a bash started in the
// session (`bash`, `exec bash`, `su`) then marks its own prompts, whatever
// its startup files set PS1 to (promptmark.PromptCommand marks it). The
// prompt command runs before every prompt, this part only once per shell.
// It follows the marker, which must see the command's $? first.
const shellOnce = `[ -n "$__ptyseam_once" ] || { set +H; export -n PS1 PS2; __ptyseam_once=1; }`

// shellEnv is what the "shell" type adds to the environment.
func shellEnv() []string {
	env := []string{
		"PS1=" + promptmark.PS1,
		"PS2=" + promptmark.PS2,
		"PROMPT_COMMAND=" + promptmark.PromptCommand + "; " + shellOnce,
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
		"; " + promptmark.Install()
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
