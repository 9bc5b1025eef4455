package jobs

import (
	"errors"
	"io"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// scanPage is how many lines one service-address scan reads at a time.
const scanPage = 1000

// watchOutput follows j's raw output: it counts bytes, publishes data
// events and scans new complete lines for service addresses. It ends at the
// end of the job's output or at shutdown.
func (m *Manager) watchOutput(j *job, tap *core.Tap, tapErr error) {
	defer m.watchers.Done()
	defer close(j.tapDone)
	if tapErr != nil {
		m.log.Warn("jobs: cannot watch output", "job", j.id, "error", tapErr)
		return
	}
	m.scanServices(j, false) // what arrived before the tap existed
	for {
		chunk, err := tap.Next(m.ctx)
		if len(chunk) > 0 {
			j.mu.Lock()
			j.countLocked(chunk)
			j.mu.Unlock()
			m.scanServices(j, false)
			m.hub.publish(Event{Kind: EventData, ID: string(j.id), Group: j.group, Title: j.title, Bytes: int64(len(chunk))})
		}
		switch {
		case err == nil:
			continue
		case errors.Is(err, core.ErrTapOverflow):
			// Bytes were lost to this tap only; the scrollback has them.
			// Start over with a fresh tap.
			tap.Close()
			if tap, err = m.svc.Tap(j.sowner, j.sid); err != nil {
				m.scanServices(j, true)
				return
			}
			m.scanServices(j, false)
			continue
		case errors.Is(err, io.EOF):
			m.scanServices(j, true)
		}
		tap.Close()
		return
	}
}

// scanServices scans the lines not yet scanned for service addresses. The
// unterminated last line is scanned only at the end of output (final), so
// a half-printed URL is never recorded.
func (m *Manager) scanServices(j *job, final bool) {
	for range 1000 { // bounded: at most a million lines per call
		j.mu.Lock()
		start := j.scanned
		j.mu.Unlock()
		page, err := m.svc.Read(j.sowner, j.sid, core.PageRequest{Start: start, Count: scanPage})
		if err != nil || len(page.Lines) == 0 {
			return
		}
		n := len(page.Lines)
		if page.Partial && !final {
			n-- // leave the unterminated line for later
		}
		for _, line := range page.Lines[:n] {
			j.services.Scan(line)
		}
		j.mu.Lock()
		j.scanned = page.Start + int64(n)
		j.mu.Unlock()
		if n < len(page.Lines) || page.End >= page.Total {
			return
		}
	}
}

// watchExit waits for j's program to end and records how it ended.
func (m *Manager) watchExit(j *job) {
	defer m.watchers.Done()
	st, err := m.svc.Wait(m.ctx, j.sowner, j.sid)
	if err == nil {
		// Publish data before exit: let the output watcher finish.
		select {
		case <-j.tapDone:
		case <-m.ctx.Done():
		}
	} else {
		st = core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: err.Error()}
	}
	m.recordExit(j, st)
}

// recordExit moves j to its final state once.
func (m *Manager) recordExit(j *job, st core.Status) {
	j.mu.Lock()
	if j.isExited() {
		j.mu.Unlock()
		return
	}
	if st.Signal == "" && st.ExitCode >= 0 {
		c := st.ExitCode
		j.exitCode = &c
	}
	j.signal = st.Signal
	switch {
	case j.state == StateStopping:
		j.state = StateStopped
		if j.reason == "" {
			j.reason = j.cause
		}
	case st.Signal == "" && st.ExitCode == 0:
		j.state = StateFinished
	default:
		j.state = StateFailed
	}
	j.ended = time.Now()
	if j.timer != nil {
		j.timer.Stop()
	}
	close(j.exited)
	j.mu.Unlock()
	info := m.info(j)
	m.log.Info("jobs: ended", "job", j.id, "state", info.State, "status", st.String(), "reason", info.StopReason)
	m.hub.publish(Event{Kind: EventExit, ID: info.ID, Group: info.Group, Title: info.Title, Info: info})
}

// info returns j's snapshot with fresh output statistics when the session
// can still be read.
func (m *Manager) info(j *job) Info {
	if page, err := m.svc.Read(j.sowner, j.sid, core.PageRequest{Newest: true, Count: 1}); err == nil {
		j.mu.Lock()
		j.lastStats = OutputStats{Lines: page.Total, First: page.First, Retained: page.Total - page.First}
		j.mu.Unlock()
	}
	return j.snapshot()
}
