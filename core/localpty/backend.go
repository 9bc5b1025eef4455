package localpty

import (
	"slices"

	"github.com/ptyseam/ptyseam/core"
)

// Backend type strings.
const (
	TypeShell = "shell"
	TypeExec  = "exec"
)

// Backend is a local PTY backend of type "shell" or "exec". Its sessions
// implement [core.BackendSession], [core.Prober] (whose questions answer
// on Linux) and [core.TryIO].
type Backend struct {
	typ   string
	opts  Options
	shell []string // shell argv for TypeShell
	cg    cgroupState
}

// NewShell returns the "shell" backend: an interactive shell with the
// prompt marker installed (see package promptmark). A
// request's non-empty Command replaces the shell argv; the marker
// environment is set either way.
func NewShell(o ShellOptions) *Backend {
	sh := o.Shell
	if len(sh) == 0 {
		sh = DefaultShell
	}
	return &Backend{typ: TypeShell, opts: o.Options.withDefaults(), shell: slices.Clone(sh)}
}

// NewExec returns the "exec" backend: the request's Command (argv, which
// must not be empty) runs directly on the terminal.
func NewExec(o ExecOptions) *Backend {
	return &Backend{typ: TypeExec, opts: o.Options.withDefaults()}
}

// Register registers a "shell" and an "exec" backend with default options.
// If the second registration fails, the first is undone.
func Register(svc core.Registrar) error {
	return core.RegisterAll(svc, NewShell(ShellOptions{}), NewExec(ExecOptions{}))
}

// Type returns "shell" or "exec".
func (b *Backend) Type() string { return b.typ }
