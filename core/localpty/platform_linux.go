package localpty

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// platform is the Linux part of a session: its cgroup leaf (if any), the
// top-level process's start time, and what the /proc scan has seen.
type platform struct {
	cg          *cgroup
	v1          []string // the sandbox's cgroup v1 leaves (hybrid hosts)
	leaderStart uint64
	tracked     map[int]uint64 // pid -> start time; guarded by closeSem
}

func (p *platform) init(pid int) {
	if st, err := procfs.ReadStat(pid, nil); err == nil {
		p.leaderStart = st.StartTime
	}
	p.tracked = make(map[int]uint64)
}

func (p *platform) describe() string {
	if p.cg == nil {
		return ""
	}
	return p.cg.path
}

// verifyGroup checks that pgid belongs to the session led by leader. The
// terminal's foreground group always does; this guards against the group
// dying and its id being reused between TIOCGPGRP and kill.
func (p *platform) verifyGroup(leader, pgid int) error {
	st, err := procfs.ReadStat(pgid, nil)
	if err != nil {
		return nil // the group leader is gone; its members keep the id reserved
	}
	if st.PGRP == pgid && st.Session != leader {
		return fmt.Errorf("process group %d belongs to session %d, not %d", pgid, st.Session, leader)
	}
	return nil
}

// startCmd starts the program, in a fresh cgroup leaf when one can be made.
// If starting inside the cgroup fails but starting without it works, the
// backend stops using cgroups.
func (b *Backend) startCmd(sp spawnSpec, tty, devpts *os.File) (*exec.Cmd, platform, error) {
	var cg *cgroup
	if !b.opts.DisableCgroup && !b.cg.disabled.Load() {
		parent, err := b.cg.parent(b.opts.Logger)
		if err == nil {
			cg, err = newCgroup(parent)
		}
		if err != nil {
			b.cg.disable(b.opts.Logger, err)
			cg = nil
		}
	}
	sb := b.opts.Sandbox
	var v1 []string // cgroup v1 leaves of a hybrid host, joined by the launcher
	if sb != nil && sb.limited() {
		if cg == nil {
			return nil, platform{}, core.Errorf(core.CodeUnsupported, "sandbox limits need the session's cgroup v2 leaf, and none could be made: the session is refused")
		}
		missing, err := cg.limit(sb)
		if err == nil && len(missing) > 0 {
			v1, err = v1Leaves(sb, missing)
		}
		if err != nil {
			_ = cg.remove()
			return nil, platform{}, wrapErr(core.CodeUnsupported, err, "the sandbox's limits cannot be set: the session is refused")
		}
	}
	if sb != nil {
		sp.argv = sb.wrap(v1, sp.argv)
	}
	cmd := newCmd(sp, tty)
	if sb != nil {
		sandboxAttr(sb, cmd.SysProcAttr)
		passDevpts(cmd, devpts)
	}
	if cg != nil {
		cmd.SysProcAttr.UseCgroupFD = true
		cmd.SysProcAttr.CgroupFD = cg.fd
	}
	err := StartChild(cmd)
	if cg != nil {
		cg.closeFD()
	}
	if err == nil {
		return cmd, platform{cg: cg, v1: v1}, nil
	}
	if cg == nil || sb != nil {
		if cg != nil {
			_ = cg.remove()
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = removeV1(ctx, v1)
		cancel()
		return nil, platform{}, err // a sandbox never falls back to less confinement
	}
	_ = cg.remove()
	retry := newCmd(sp, tty)
	if rerr := StartChild(retry); rerr != nil {
		return nil, platform{}, rerr
	}
	b.cg.disable(b.opts.Logger, fmt.Errorf("starting in a cgroup failed: %w", err))
	return retry, platform{}, nil
}

// release removes the cgroup leaf once the session is empty.
func (p *platform) release(ctx context.Context) error {
	if p.cg == nil {
		return nil
	}
	if err := p.cg.removeWait(ctx); err != nil {
		return err
	}
	p.cg = nil
	// The v2 leaf is empty, so every process of the session is gone and
	// its v1 leaves can go too.
	if err := removeV1(ctx, p.v1); err != nil {
		return err
	}
	p.v1 = nil
	return nil
}
