package dockertest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/moby/moby/client"
)

// hangAfter is how long the engine may leave an info request unanswered
// before the watchdog takes it for hung. An info request reads every
// container's state, so it waits on a container that an engine stuck in
// its own locks holds; a busy engine answers it within seconds.
var hangAfter = 2 * time.Minute

// probeEvery is how often the watchdog asks.
var probeEvery = 10 * time.Second

// startWatch runs the watchdog until Stop: a daemon that stops answering
// is reported with its goroutine stacks and ended, so that the calls
// waiting on it fail at once and later tests fail in [Shared] with the
// report, instead of every test waiting out its own deadline.
func (d *Daemon) startWatch(cli *client.Client, report io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	d.stopWatch = cancel
	d.watching.Go(func() { d.watch(ctx, cli, report) })
}

// watch asks cli for the engine's info every probeEvery until ctx ends or
// the daemon exits.
func (d *Daemon) watch(ctx context.Context, cli *client.Client, report io.Writer) {
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.done:
			return
		case <-t.C:
		}
		actx, cancel := context.WithTimeout(ctx, hangAfter)
		_, err := cli.Info(actx, client.InfoOptions{})
		cancel()
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, context.DeadlineExceeded) {
			d.endHung(ctx, report)
			return
		}
	}
}

// endHung reports the hung engine to report (stderr: the test output) with the
// goroutines of dockerd that have waited for minutes, records the report
// for Hung, and kills the daemon with everything it started.
func (d *Daemon) endHung(ctx context.Context, report io.Writer) {
	why := fmt.Sprintf("the engine in %s answered no info request for %v", d.Dir, hangAfter)
	stacks, err := d.dumpStacks(ctx)
	summary := blockedStacks(stacks)
	switch {
	case err != nil:
		summary = err.Error()
	case summary == "":
		summary = "(no goroutine has waited a minute)"
	}
	d.hung.Store(&why)
	kerr := killDaemonProcs(d.Dir)
	_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
	fmt.Fprintf(report, "dockertest: %s; killed it so that the calls waiting on it fail (%v). dockerd's goroutines blocked for minutes:\n%s\ndockerd's log ends:\n%s\n",
		why, killOutcome(kerr), summary, d.logTail())
}

// killOutcome names a kill's outcome.
func killOutcome(err error) string {
	if err != nil {
		return err.Error()
	}
	return "all of it ended"
}

// Hung returns why the watchdog ended the daemon, or "" while it
// answers.
func (d *Daemon) Hung() string {
	if p := d.hung.Load(); p != nil {
		return *p
	}
	return ""
}
