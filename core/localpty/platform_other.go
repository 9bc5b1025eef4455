//go:build unix && !linux

package localpty

import (
	"context"
	"os"
	"os/exec"

	"github.com/creack/pty"

	"github.com/ptyseam/ptyseam/core"
)

// platform holds nothing outside Linux: there is no cgroup and no /proc.
type platform struct{}

// cgroupState is empty outside Linux.
type cgroupState struct{}

func (p *platform) init(int)                      {}
func (p *platform) describe() string              { return "" }
func (p *platform) verifyGroup(_, _ int) error    { return nil }
func (p *platform) release(context.Context) error { return nil }

// openPTY opens the session's terminal pair (a sandbox, which would need
// a terminal file system of its own, is refused before, outside Linux).
func (b *Backend) openPTY() (ptmx, tty *os.File, name string, devpts *os.File, err error) {
	ptmx, tty, err = pty.Open()
	if err != nil {
		return nil, nil, "", nil, err
	}
	return ptmx, tty, tty.Name(), nil, nil
}

// startCmd starts the program (no cgroup outside Linux).
func (b *Backend) startCmd(sp spawnSpec, tty, _ *os.File) (*exec.Cmd, platform, error) {
	cmd := newCmd(sp, tty)
	if err := StartChild(cmd); err != nil {
		return nil, platform{}, err
	}
	return cmd, platform{}, nil
}

// checkSandbox refuses every sandbox outside Linux.
func (b *Backend) checkSandbox(*Sandbox) error {
	return core.Errorf(core.CodeUnsupported, "sandboxed sessions need Linux (Landlock, namespaces, cgroup v2)")
}
