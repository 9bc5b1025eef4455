package core

import (
	"context"
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// settleParams describe one wait for a session to settle.
type settleParams struct {
	start     time.Time     // when the write was issued
	quiet     time.Duration // silence window for inferred_idle
	deadline  time.Time     // absolute deadline for timeout
	marks0    scrollback.Marks
	total0    int64 // scrollback lines at the write
	fg0       ForegroundState
	writeDone <-chan struct{} // nil: nothing being written
	initial   bool            // the initial-output wait of a spawn
	// promptOnly settles only on the prompt marker, exit or the deadline:
	// the initial wait of a shell known to print the marker.
	promptOnly bool
	// noBaseline: fg0 was not taken (a marked shell at its prompt); a
	// foreground read then counts once the input was consumed.
	noBaseline bool
}

// settleOutcome is why a wait ended.
type settleOutcome struct {
	reason   WaitReason
	exitCode *int
}

// probeSchedule is how long output must have been quiet before each
// successive foreground probe; after the last entry, probes repeat at its
// interval. Probes run only while someone waits, so an idle session costs
// nothing.
var probeSchedule = []time.Duration{
	500 * time.Microsecond, 2 * time.Millisecond, 5 * time.Millisecond,
	12 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond,
}

const probeRepeat = 100 * time.Millisecond

// confirmDelay separates the two probes that confirm a foreground read.
const confirmDelay = time.Millisecond

// settle waits until the session settles and says why. It never busy-polls:
// it sleeps on output changes, exit, cancellation and the next due check.
// ctx ending or cancel closing returns WaitCancelled.
func (sess *session) settle(ctx context.Context, p settleParams, cancel <-chan struct{}) settleOutcome {
	writeDone := p.writeDone
	var writeDoneAt time.Time
	if writeDone == nil {
		writeDoneAt = p.start
	}
	probeIdx := 0
	var lastSeenOutput time.Time
	var (
		candidate       bool          // a foreground read was seen once
		candidateOutput time.Time     // lastOutput when it was seen
		candidateQuiet  time.Duration // quietFor when it was seen
	)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()

	for {
		sess.mu.Lock()
		exited := sess.status.Exited()
		closing := sess.closing != nil || sess.closed
		marks := sess.buf.Marks()
		total := sess.buf.Total()
		lastOutput := sess.lastOutput
		changed := sess.changed
		sess.mu.Unlock()

		if exited || closing {
			return settleOutcome{reason: WaitSessionExit}
		}
		now := time.Now()
		if !writeDoneAt.IsZero() {
			// The prompt tier: a prompt marker after the write, on a
			// new line (a prompt redrawn in place, as readline does on
			// SIGWINCH, is not a command finishing), with nothing after
			// it, and the shell in the foreground.
			if marks.PromptEnds > p.marks0.PromptEnds && marks.TextSincePromptEnd == 0 && total > p.total0 {
				if leader, ok := sess.leaderInForeground(); !ok || leader {
					out := settleOutcome{reason: WaitPrompt}
					if marks.CommandEnds > p.marks0.CommandEnds && marks.LastExitValid && !p.initial {
						code := marks.LastExitCode
						out.exitCode = &code
					}
					return out
				}
			}
		}
		if lastOutput != lastSeenOutput {
			lastSeenOutput = lastOutput
			probeIdx = 0
		}
		activity := lastOutput
		if writeDoneAt.After(activity) {
			activity = writeDoneAt
		}
		if activity.Before(p.start) {
			activity = p.start
		}
		quietFor := now.Sub(activity)

		// The exact tier: the foreground group blocked reading the
		// terminal, newly since the write.
		// A wait is confirmed by a second probe confirmDelay later with no
		// output in between, so output the program wrote just before it
		// blocked (still in the kernel or in our reader) is never cut off.
		var nextProbe time.Duration = -1
		if sess.prober != nil && !writeDoneAt.IsZero() && !p.promptOnly {
			if candidate && lastOutput != candidateOutput {
				candidate = false
			}
			due := probeDue(probeIdx)
			if candidate {
				due = candidateQuiet + confirmDelay
			}
			if quietFor >= due {
				fg, ok := sess.probe()
				reading := ok && fg.ReadingInput && fg.PendingOutput <= 0 && fg.PendingInput <= 0 &&
					(p.initial || p.noBaseline || fg.PGID != p.fg0.PGID || fg.Switches != p.fg0.Switches)
				switch {
				case reading && candidate:
					return settleOutcome{reason: WaitStdinRead}
				case reading:
					candidate, candidateOutput, candidateQuiet = true, lastOutput, quietFor
					due = quietFor + confirmDelay
				default:
					candidate = false
					probeIdx++
					due = probeDue(probeIdx)
					if due <= quietFor {
						due = quietFor + probeRepeat
					}
				}
			}
			nextProbe = due - quietFor
		}

		// The silence tier and the deadline. Before a program's first
		// output, the initial wait allows it a longer start.
		quiet := p.quiet
		if p.initial && lastOutput.Equal(sess.created) {
			quiet = 3 * p.quiet
		}
		if quietFor >= quiet && !writeDoneAt.IsZero() && !p.promptOnly {
			return settleOutcome{reason: WaitInferredIdle}
		}
		if !now.Before(p.deadline) {
			return settleOutcome{reason: WaitTimeout}
		}
		wait := p.deadline.Sub(now)
		if q := quiet - quietFor; q < wait && !p.promptOnly {
			wait = q
		}
		if nextProbe >= 0 && nextProbe < wait {
			wait = nextProbe
		}
		if wait < 100*time.Microsecond {
			wait = 100 * time.Microsecond
		}
		timer.Reset(wait)
		select {
		case <-changed:
		case <-timer.C:
		case <-writeDone:
			writeDone = nil
			writeDoneAt = time.Now()
		case <-cancel:
			return settleOutcome{reason: WaitCancelled}
		case <-ctx.Done():
			return settleOutcome{reason: WaitCancelled}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

func probeDue(i int) time.Duration {
	if i < len(probeSchedule) {
		return probeSchedule[i]
	}
	return probeSchedule[len(probeSchedule)-1] + time.Duration(i-len(probeSchedule)+1)*probeRepeat
}

// probe asks the backend about the foreground group; ok is false when the
// backend cannot tell.
func (sess *session) probe() (ForegroundState, bool) {
	if sess.prober == nil {
		return ForegroundState{}, false
	}
	fg, err := sess.prober.ProbeForeground()
	if err != nil {
		return ForegroundState{}, false
	}
	return fg, true
}

// leaderInForeground reports whether the session's top-level process group
// holds the terminal, by the cheapest means the backend offers; ok is false
// when the backend cannot tell.
func (sess *session) leaderInForeground() (leader, ok bool) {
	if g, isGrouper := sess.be.(ForegroundGrouper); isGrouper {
		_, leader, err := g.ForegroundGroup()
		return leader, err == nil
	}
	fg, ok := sess.probe()
	return fg.Leader, ok
}
