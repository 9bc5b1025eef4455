package gdbmi

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// ErrNoHardwareWatchpoints is returned by [Client.WatchInsert] for a
// watchpoint gdb would implement with the processor's debug registers on
// a machine that does not honour them (some virtual machines): such a
// watchpoint never triggers, and a local's is silently deleted when its
// frame returns ("watchpoint-scope"). The client finds out once, with a
// probe (see [Client.WatchInsert]).
var ErrNoHardwareWatchpoints = errors.New("gdbmi: hardware watchpoints never trigger on this machine " +
	"(the processor's debug registers are not honoured; a probe's watchpoint did not trigger): " +
	"set gdbmi.Options.SoftwareWatchpoints for write watchpoints (gdb then single-steps the program: correct, slower); " +
	"read and access watchpoints exist in hardware only")

// hwProbeWait bounds the probe: gdb on a tiny program takes 0.2-0.4 s.
const hwProbeWait = 15 * time.Second

// hwProbeMark starts the line the probe prints with its verdict.
const hwProbeMark = "gdbmi-hw-probe "

// hardwareWatchpointsWork reports whether hardware watchpoints trigger on
// this machine, probing once per client (later calls reuse the answer).
// known is false when the probe could not tell (no "true" program, gdb
// made a software watchpoint, the probe failed or ctx ended); the next
// call probes again.
func (c *Client) hardwareWatchpointsWork(ctx context.Context) (works, known bool) {
	c.hwMu.Lock()
	defer c.hwMu.Unlock()
	if c.hwKnown {
		return c.hwWorks, true
	}
	works, known = c.probeHardwareWatchpoints(ctx)
	c.hwWorks, c.hwKnown = works, known
	return works, known
}

// probeHardwareWatchpoints runs a second gdb, in batch mode on a session
// of its own, on the "true" program: stopped at its first instruction, it
// sets a hardware watchpoint on the word just below the stack pointer,
// which the program's first call writes, and continues. Where the debug
// registers are honoured the watchpoint stops the program; where they are
// not, the program runs to its exit.
func (c *Client) probeHardwareWatchpoints(ctx context.Context) (works, known bool) {
	prog, err := exec.LookPath("true")
	if err != nil {
		return false, false
	}
	ctx, cancel := context.WithTimeout(ctx, hwProbeWait)
	defer cancel()
	res, err := c.svc.Spawn(ctx, c.owner, core.SpawnRequest{
		Type: "exec",
		Command: []string{c.opts.GDB, "-q", "-nx", "-batch",
			"-ex", "set startup-with-shell off",
			"-ex", "starti",
			"-ex", "watch -location *(long *)($sp - 8)",
			"-ex", "continue",
			"-ex", `printf "` + hwProbeMark + `%d\n", $_isvoid($_exitcode)`,
			prog},
		Env:           gdbEnv(c.opts.Env),
		NoInitialWait: true,
	})
	if err != nil {
		return false, false
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		_, _ = c.svc.Close(cctx, c.owner, res.ID, "gdbmi: watchpoint probe done")
		cancel()
	}()
	if _, err := c.svc.Wait(ctx, c.owner, res.ID); err != nil {
		return false, false
	}
	page, err := c.svc.Read(c.owner, res.ID, core.PageRequest{Newest: true, Count: 200})
	if err != nil {
		return false, false
	}
	return hwProbeVerdict(page.Lines)
}

// hwProbeVerdict reads the probe's output: the watchpoint must have been
// a hardware one, and the verdict line says whether the program was
// still there after continue (1: the watchpoint stopped it).
func hwProbeVerdict(lines []string) (works, known bool) {
	hardware := false
	for _, l := range lines {
		if strings.HasPrefix(l, "Hardware watchpoint 1:") {
			hardware = true
		}
		if v, ok := strings.CutPrefix(l, hwProbeMark); ok && hardware {
			switch strings.TrimSpace(v) {
			case "1":
				return true, true
			case "0":
				return false, true
			}
		}
	}
	return false, false
}

// refuseHardware is WatchInsert's check once gdb set watchpoint w: on a
// machine whose hardware watchpoints never trigger, a hardware one is
// deleted again and ErrNoHardwareWatchpoints returned. A write watchpoint
// may be a software one even without Options.SoftwareWatchpoints (gdb
// falls back for what the debug registers cannot hold): gdb's table says
// which.
func (c *Client) refuseHardware(ctx context.Context, kind WatchKind, w *Watchpoint) error {
	if kind == WatchWrite && c.opts.SoftwareWatchpoints {
		return nil
	}
	if works, known := c.hardwareWatchpointsWork(ctx); !known || works {
		return nil
	}
	if kind == WatchWrite {
		res, err := c.Exec(ctx, "-break-info", w.Number.String())
		if err != nil {
			return err
		}
		var out struct {
			Table struct {
				Body []Breakpoint `mi:"body"`
			} `mi:"BreakpointTable"`
		}
		if err := res.Decode(&out); err != nil {
			return err
		}
		if len(out.Table.Body) == 0 || out.Table.Body[0].Type != "hw watchpoint" {
			return nil
		}
	}
	if err := c.BreakDelete(ctx, w.Number); err != nil {
		return errors.Join(ErrNoHardwareWatchpoints, err)
	}
	return ErrNoHardwareWatchpoints
}
