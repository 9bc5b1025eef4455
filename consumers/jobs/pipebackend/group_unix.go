//go:build unix

package pipebackend

import (
	"errors"
	"os/exec"
	"syscall"
)

// procGroup is the set of processes a session's signals and teardown
// address as one: on Unix the program's own process group (Setpgid), whose
// id is the program's pid.
type procGroup struct {
	pgid int
}

// sysProcAttr puts the program in a new process group of its own.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// newProcGroup returns the group of the started program cmd.
func newProcGroup(cmd *exec.Cmd) (procGroup, error) {
	return procGroup{pgid: cmd.Process.Pid}, nil
}

// signal delivers sig to every member of the group.
func (g procGroup) signal(sig syscall.Signal) error { return syscall.Kill(-g.pgid, sig) }

// resume sends SIGCONT to the group, so a stopped member can act on the
// signal it was sent before.
func (g procGroup) resume() { _ = syscall.Kill(-g.pgid, syscall.SIGCONT) }

// live reports whether the group has a member that is not a zombie (see
// groupLive).
func (g procGroup) live() bool { return groupLive(g.pgid) }

// exists reports whether the group has a member, zombies included: what
// kill(2) with signal 0 can tell.
func (g procGroup) exists() bool {
	err := syscall.Kill(-g.pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// release frees what the group holds (nothing on Unix).
func (g procGroup) release() {}
