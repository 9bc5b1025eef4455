package pipebackend

import (
	"syscall"
	"time"
)

// hangup ends what the program left in its process group once it has
// exited, as a terminal hangs up its foreground group when its shell
// exits: SIGHUP (and SIGCONT, so a stopped process can act on it), then
// SIGKILL for whatever is left after CloseGrace. It returns at once when
// the group is empty, and early when stop is closed (Close is tearing the
// session down itself). Processes that left the group (setsid) are not
// touched: Close ends them.
func (s *session) hangup(stop <-chan struct{}) {
	if !s.grp.live() {
		return
	}
	s.opts.Logger.Debug("pipebackend: program exited, hanging up its process group", "pid", s.pid)
	_ = s.grp.signal(syscall.SIGHUP)
	s.grp.resume()
	grace := time.NewTimer(s.opts.CloseGrace)
	defer grace.Stop()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-grace.C:
			s.opts.Logger.Debug("pipebackend: hang-up grace expired, killing the process group", "pid", s.pid)
			_ = s.grp.signal(syscall.SIGKILL)
			return
		case <-tick.C:
			if !s.grp.live() {
				return
			}
		}
	}
}
