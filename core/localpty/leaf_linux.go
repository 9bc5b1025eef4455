package localpty

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"syscall"
)

// Leaf is a cgroup v2 leaf holding the processes of one session that
// another backend started (the jobs' pipe backend), named like this
// package's own session leaves: when this process dies without closing
// the session (SIGKILL, a crash), the next ReapStaleCgroups in the same
// cgroup kills what is left in it, as it does for a terminal's escapees.
// A nil *Leaf (no usable cgroup v2) is valid and does nothing.
type Leaf struct {
	cg *cgroup
}

// leafParent is where StartInLeaf makes its leaves: this process's own
// cgroup, found once (the stale leaves of dead processes there are reaped
// at that first look), or unusable from the first failure on.
var leafParent cgroupState

// StartInLeaf starts the command newCmd returns through StartChild in a
// fresh cgroup v2 leaf, and returns the leaf (nil when the process started
// without one). Without usable cgroup v2 the command starts outside any
// leaf, as it does when starting inside one fails and a second command
// from newCmd starts without it; leaves are then not tried again.
func StartInLeaf(newCmd func() *exec.Cmd, log *slog.Logger) (*exec.Cmd, *Leaf, error) {
	if log == nil {
		log = slog.Default()
	}
	var cg *cgroup
	if !leafParent.disabled.Load() {
		parent, err := leafParent.parent(log)
		if err == nil {
			cg, err = newCgroup(parent)
		}
		if err != nil {
			leafParent.disable(log, err)
			cg = nil
		}
	}
	cmd := newCmd()
	if cg == nil {
		return cmd, nil, StartChild(cmd)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.UseCgroupFD = true
	cmd.SysProcAttr.CgroupFD = cg.fd
	err := StartChild(cmd)
	cg.closeFD()
	if err == nil {
		return cmd, &Leaf{cg: cg}, nil
	}
	_ = cg.remove()
	retry := newCmd()
	if rerr := StartChild(retry); rerr != nil {
		return nil, nil, rerr
	}
	leafParent.disable(log, fmt.Errorf("starting in a cgroup failed: %w", err))
	return retry, nil, nil
}

// Kill kills every process in the leaf (cgroup.kill).
func (l *Leaf) Kill() error {
	if l == nil || l.cg == nil {
		return nil
	}
	return l.cg.kill()
}

// Remove removes the leaf once it is empty, retrying while the kernel
// reports it busy, until ctx ends. Call it after every process of the
// session is gone; Remove after a successful Remove returns nil.
func (l *Leaf) Remove(ctx context.Context) error {
	if l == nil || l.cg == nil {
		return nil
	}
	if err := l.cg.removeWait(ctx); err != nil {
		return err
	}
	l.cg = nil
	return nil
}
