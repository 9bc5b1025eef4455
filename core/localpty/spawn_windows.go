package localpty

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/conpty"
)

// cgroupState is empty on Windows: there is no cgroup.
type cgroupState struct{}

// Spawn runs the program on a Windows pseudo console through core/conpty
// (see that package for what differs from a Unix terminal: "\n" typed as
// "\r", a Job Object instead of process groups, no /proc probe). The
// "shell" type runs DefaultShell (cmd.exe) unless the backend or the
// request names another program; its sessions print no prompt marker.
// Options.Term is not used (a Windows console has no TERM), and
// Options.Sandbox and SpawnOptions.NoControllingTerminal are refused with
// CodeUnsupported: they are Unix notions.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	so, err := spawnOptions(b.typ, req.Options)
	if err != nil {
		return nil, err
	}
	if so.NoControllingTerminal {
		return nil, core.Errorf(core.CodeUnsupported, "NoControllingTerminal is a Unix notion: a Windows pseudo console has no controlling terminal")
	}
	if b.opts.Sandbox != nil {
		return nil, core.Errorf(core.CodeUnsupported, "the sandbox is Linux only (Landlock, namespaces, cgroups): the session is refused")
	}
	req.Options = nil
	if req.Marker == "" {
		req.Marker = "localpty-" + randomHex(12)
	}
	o := conpty.Options{DrainWindow: b.opts.DrainWindow, Logger: b.opts.Logger}
	var cb *conpty.Backend
	if b.typ == TypeShell {
		cb = conpty.NewShell(conpty.ShellOptions{Options: o, Shell: b.shell})
	} else {
		cb = conpty.NewExec(conpty.ExecOptions{Options: o})
	}
	return cb.Spawn(ctx, req)
}

// Compile-time check of the interface the backend implements.
var _ core.Backend = (*Backend)(nil)
