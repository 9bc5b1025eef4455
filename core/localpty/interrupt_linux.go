package localpty

import (
	"context"
	"errors"
	"os"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// An interactive bash loses an interrupt that reaches it between two
// commands of a list, and the next command runs to its end:
//   - The shell itself in the foreground (it ran a builtin, or reclaimed
//     the terminal after a command and has yet to fork the next): its
//     handler notes the interrupt, it blocks SIGINT across the fork, and
//     it acts on the note only once the command it forks has ended.
//   - The next command's process, forked and given the terminal, before
//     it runs the program: it still catches SIGINT with the shell's
//     handler, which notes it in that process, and it then resets the
//     handler and runs the program without looking at the note.
//   - The command that printed, already ending: the interrupt reaches
//     nothing, the command exits with its own status, and the shell goes
//     on to the next.
//
// A user's Ctrl-C meets the same windows, but a person rarely presses it
// within a millisecond of the output; a caller that interrupts the moment
// it reads a line does (more often than not, for a list typed at the
// shell). So after an interrupt Signal watches, for a bounded time, for
// the commands that started in spite of it, and interrupts them too
// (docs/localpty.md, "An interrupt typed between two commands of a list").

const (
	// interruptFollowLimit bounds how long Signal watches after an
	// interrupt the shell may hold back (a failure bound: the shell forks
	// the next command within microseconds unless the machine is loaded).
	interruptFollowLimit = 3 * time.Second
	// interruptFollowPoll is how often it looks (no event announces a
	// fork, an exec or a new foreground group).
	interruptFollowPoll = 2 * time.Millisecond
	// maxInterrupts bounds the interrupts one Signal delivers: the
	// caller's, one to the command the shell started after it, and one to
	// that command's program if it caught the second before it ran.
	maxInterrupts = 3
)

const (
	sigintBit  = 1 << (unix.SIGINT - 1)
	sigkillBit = 1 << (unix.SIGKILL - 1)
	sigttouBit = 1 << (unix.SIGTTOU - 1)
	sigtstpBit = 1 << (unix.SIGTSTP - 1)
)

// interruptRisk is what Signal notes, before it interrupts a group, about
// where the interrupt may be held back.
type interruptRisk struct {
	target int // the group interrupted
	// listGoesOn: a command the shell starts after the interrupt is one
	// it held back: the interrupt reached the shell itself, which neither
	// read the terminal nor had typed input pending (a typed line could
	// start a command the interrupt is not for), or a command whose
	// processes all take SIGINT's default action (it dies of it and the
	// shell drops the list, or it was already exiting and the shell goes
	// on).
	listGoesOn bool
	writes     uint64    // the session's writes before the interrupt
	forks      []preExec // the group's processes not yet running their program
	// holders are the processes between the shell and the interrupted
	// group's leader (a nested shell, gdb over its inferior): one that
	// takes the terminal back after the interrupt ran before it, so it
	// is no command the shell held an interrupt back from.
	holders []int
}

// maxHolders bounds the processes interruptRiskOf walks up from the
// interrupted group's leader.
const maxHolders = 16

// holdersOf returns the processes above pid up to, not including, the
// session's top-level process top: pid's parent, its parent, ... (none
// when pid is top's own child or cannot be read).
func holdersOf(pid, top int) []int {
	var out []int
	var buf [512]byte
	for range maxHolders {
		st, err := procfs.ReadStat(pid, buf[:0])
		if err != nil || st.PPID <= 1 || st.PPID == top {
			return out
		}
		out = append(out, st.PPID)
		pid = st.PPID
	}
	return out
}

// preExec is a process that still runs its parent's program: a shell's
// fork that has yet to run its command, catching SIGINT with the shell's
// handler. (A subshell or a shell function in a pipeline looks the same
// and acts on an interrupt itself; only an exec tells them apart.)
type preExec struct {
	pid   int
	start uint64 // its start time: a later process reusing the pid is not it
	// exe and cmdline are the parent's program and arguments, the fork's
	// own until it runs its command.
	exe, cmdline string
	// surely: it still ran the parent's program, with SIGINT caught, after
	// the interrupt was sent, so the handler that took the interrupt was
	// the shell's and the program it goes on to run never got it.
	surely bool
}

// interruptRiskOf looks at foreground group pgid before an interrupt.
func (s *session) interruptRiskOf(pgid int) interruptRisk {
	r := interruptRisk{target: pgid, writes: s.writes.Load()}
	if pgid != s.pid {
		r.holders = holdersOf(pgid, s.pid)
	}
	var buf [2048]byte
	members := s.groupMembers(pgid, buf[:0])
	switch {
	case !jobControlShell(s.pid):
		// Only a shell that runs each command in a group of its own lets
		// the interrupt reach it or its command and not both; a program
		// run without a shell (argv mode, a job) is left alone.
	case pgid == s.pid:
		// The shell may have given the terminal to its next command
		// since pgid was read: it is busy all the same.
		st, err := s.probe()
		r.listGoesOn = err == nil && (st.PGID != pgid || !st.ReadingInput)
	default:
		// A command whose live processes all take SIGINT's default action
		// either dies of it, and the shell drops the rest of the list, or
		// was already exiting and missed it, and the shell goes on: a
		// command it starts next was held back. One that catches, ignores
		// or blocks SIGINT decides for itself (exiting normally, it lets
		// the shell go on, as with a terminal's Ctrl-C).
		r.listGoesOn = true
		for _, m := range members {
			if m.pid != s.pid && takesInterruptItself(m.pid) {
				r.listGoesOn = false
			}
		}
	}
	r.listGoesOn = r.listGoesOn && s.pendingInput() == 0
	for _, m := range members {
		if m.pid == s.pid {
			continue
		}
		if f, ok := preExecProcess(m.pid); ok {
			r.forks = append(r.forks, f)
		}
	}
	return r
}

// followInterrupt runs after an interrupt to group pgid was sent: until
// the top-level process reads the terminal (the shell at its prompt),
// within interruptFollowLimit, it interrupts a command that started where
// the shell held the interrupt back (see the top of this file). After
// such a follow-up it returns once the shell is back at its prompt (or
// at the limit), so the caller's next line is not typed while the shell
// takes the terminal back.
func (s *session) followInterrupt(ctx context.Context, r interruptRisk) {
	r.markSure()
	if !r.listGoesOn && len(r.forks) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, interruptFollowLimit)
	defer cancel()
	tick := time.NewTicker(interruptFollowPoll)
	defer tick.Stop()
	for sent := 1; ; {
		st, err := s.probe()
		if err != nil || st.ReadingInput && (st.Leader || slices.Contains(r.holders, st.PGID)) {
			return // the shell, or the program that ran the interrupted one, is back at its prompt
		}
		typed := s.writes.Load() != r.writes
		next, open := r.heldBack(s, st.PGID, typed)
		switch {
		case next != 0 && sent < maxInterrupts:
			pgid := next
			r = s.interruptRiskOf(next)
			r.listGoesOn = false // a command of the list: the shell acts on its ending of an interrupt
			if err := s.plat.verifyGroup(s.pid, pgid); err != nil {
				return
			}
			if err := unix.Kill(-pgid, unix.SIGINT); err != nil && !errors.Is(err, unix.ESRCH) {
				return
			}
			sent++
			s.log.Debug("localpty: interrupt followed up", "pid", s.pid, "pgid", pgid)
			r.markSure()
		case !open && sent == 1:
			return // nothing was held back
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// heldBack returns the foreground group fg when it holds a command the
// interrupt did not reach, else 0; open reports that one may yet show.
// typed: input was written since the interrupt.
func (r *interruptRisk) heldBack(s *session, fg int, typed bool) (next int, open bool) {
	if r.listGoesOn && !typed {
		if fg != s.pid && fg != r.target && !slices.Contains(r.holders, fg) {
			return fg, true // the shell started a command after the interrupt
		}
		open = true
	}
	for _, f := range r.forks {
		held, group, done := f.heldBack()
		if held && group == fg {
			return fg, true
		}
		// A held command may take the terminal only later: the shell
		// can reclaim it in between (it acted on the interrupt while the
		// command's process went on to run its program).
		open = open || !done || held
	}
	return 0, open
}

// markSure looks again at the forks just after the interrupt was sent.
func (r *interruptRisk) markSure() {
	for i := range r.forks {
		f := &r.forks[i]
		g, ok := preExecProcess(f.pid)
		f.surely = ok && g.start == f.start && g.exe == f.exe && g.cmdline == f.cmdline
	}
}

// heldBack reports whether the fork now runs another program that the
// interrupt did not reach, and its process group; done: it ran a program
// or ended (nothing more to learn).
func (f preExec) heldBack() (held bool, group int, done bool) {
	var buf [4096]byte
	st, err := procfs.ReadStat(f.pid, buf[:0])
	if err != nil || st.Gone() || st.StartTime != f.start {
		return false, 0, true
	}
	if exe, cmdline := programOf(f.pid); exe == f.exe && cmdline == f.cmdline {
		return false, 0, false // it has yet to run its command
	}
	if f.surely {
		return true, st.PGRP, true
	}
	// Sent while it went on to its program: that program, if it neither
	// catches nor ignores SIGINT and is alive with none pending, did not
	// get it (it would have ended).
	b, err := procfs.ReadFile(procfs.Path(f.pid, "status"), buf[:0])
	if err != nil {
		return false, 0, true
	}
	ts, err := procfs.ParseStatus(b)
	if err != nil {
		return false, 0, true
	}
	dflt := (ts.SigCgt|ts.SigIgn)&sigintBit == 0 && (ts.SigPnd|ts.ShdPnd)&(sigintBit|sigkillBit) == 0
	return dflt && ts.State != 'Z' && ts.State != 'X', st.PGRP, true
}

// takesInterruptItself reports whether pid is a live program, not
// exiting, that catches, ignores or blocks SIGINT (a shell's fork that has
// yet to run its command does not count: see preExec).
func takesInterruptItself(pid int) bool {
	var buf [4096]byte
	st, err := procfs.ReadStat(pid, buf[:0])
	if err != nil || st.Exiting() {
		return false
	}
	b, err := procfs.ReadFile(procfs.Path(pid, "status"), buf[:0])
	if err != nil {
		return false
	}
	ts, err := procfs.ParseStatus(b)
	if err != nil || (ts.SigCgt|ts.SigIgn|ts.SigBlk)&sigintBit == 0 {
		return false
	}
	_, fork := preExecProcess(pid)
	return !fork
}

// preExecProcess reports whether pid runs its parent's program (same
// executable and arguments) with SIGINT caught, and that parent is a shell
// with job control (a program's own forks, such as Python's worker
// processes, are not its commands).
func preExecProcess(pid int) (preExec, bool) {
	var buf [4096]byte
	st, err := procfs.ReadStat(pid, buf[:0])
	if err != nil || st.Gone() || st.PPID <= 1 {
		return preExec{}, false
	}
	b, err := procfs.ReadFile(procfs.Path(pid, "status"), buf[:0])
	if err != nil {
		return preExec{}, false
	}
	ts, err := procfs.ParseStatus(b)
	if err != nil || ts.SigCgt&sigintBit == 0 || !jobControlShell(st.PPID) {
		return preExec{}, false
	}
	exe, cmdline := programOf(pid)
	pexe, pcmdline := programOf(st.PPID)
	if exe == "" || exe != pexe || cmdline != pcmdline {
		return preExec{}, false
	}
	return preExec{pid: pid, start: st.StartTime, exe: exe, cmdline: cmdline}, true
}

// jobControlShell reports whether pid looks like a shell with job control:
// it catches SIGINT and ignores SIGTTOU (to set the terminal's group) and
// SIGTSTP (an interactive bash, zsh, dash or fish does both).
func jobControlShell(pid int) bool {
	var buf [4096]byte
	b, err := procfs.ReadFile(procfs.Path(pid, "status"), buf[:0])
	if err != nil {
		return false
	}
	ts, err := procfs.ParseStatus(b)
	return err == nil && ts.SigCgt&sigintBit != 0 && ts.SigIgn&(sigttouBit|sigtstpBit) == sigttouBit|sigtstpBit
}

// programOf returns pid's executable and arguments ("" when gone).
func programOf(pid int) (exe, cmdline string) {
	exe, err := os.Readlink(procfs.Path(pid, "exe"))
	if err != nil {
		return "", ""
	}
	b, err := procfs.ReadFile(procfs.Path(pid, "cmdline"), nil)
	if err != nil {
		return "", ""
	}
	return exe, string(b)
}
