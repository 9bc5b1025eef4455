package localpty

import "os"

// Prompt marker settings of the "shell" type. PS1 brackets the prompt with
// OSC 133;A and OSC 133;B (the B marker ends it, so the service knows the
// shell waits for input) and PROMPT_COMMAND prints OSC 133;D;<status> with
// the previous command's exit status before every prompt.
const (
	ShellPS1           = `\[\e]133;A\a\]\w\$ \[\e]133;B\a\]`
	ShellPromptCommand = `printf "\033]133;D;%s\007" "$?"`
)

// shellEnv is what the "shell" type adds to the environment.
func shellEnv() []string {
	return []string{
		"PS1=" + ShellPS1,
		"PROMPT_COMMAND=" + ShellPromptCommand,
		"PAGER=cat",
		"GIT_PAGER=cat",
		"HISTFILE=",
	}
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
