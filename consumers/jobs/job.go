package jobs

import (
	"bytes"
	"slices"
	"sync"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs/portprobe"
	"github.com/ptyseam/ptyseam/core"
)

// job is the manager's record of one job.
type job struct {
	// Set at launch, then read-only.
	id       core.SessionID // the job id (core.JobIDPrefix), minted by the manager
	owner    *core.Owner    // the agent that launched the job
	sid      core.SessionID // the job's core session
	sowner   *core.Owner    // the private core owner the session was spawned for
	pid      int
	title    string
	group    string
	command  string
	args     []string
	cwd      string
	backend  BackendChoice
	started  time.Time
	timeout  time.Duration
	notify   bool
	ports    []int
	warnings []string
	services *portprobe.Set

	exited   chan struct{} // closed when the end was recorded
	tapDone  chan struct{} // closed when the output watcher ended
	stopDone chan struct{} // closed when a stop finished; nil before one began

	mu        sync.Mutex
	state     State
	exitCode  *int
	signal    string
	reason    StopReason
	cause     StopReason
	ended     time.Time
	bytes     int64
	lineRaw   int64 // raw bytes since the last newline
	cutRaw    int64 // raw bytes beyond MaxLineBytes in finished lines
	scanned   int64 // next line to scan for service addresses
	released  bool  // the session was closed: output unreadable
	dropped   bool
	timer     *time.Timer
	stopErr   error
	lastStats OutputStats // kept for Info after the session is gone
}

// snapshot returns the job's Info without output statistics.
func (j *job) snapshot() Info {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.snapshotLocked()
}

func (j *job) snapshotLocked() Info {
	in := Info{
		ID:           string(j.id),
		PID:          j.pid,
		Title:        j.title,
		Group:        j.group,
		Command:      j.command,
		Args:         slices.Clone(j.args),
		Cwd:          j.cwd,
		Backend:      j.backend,
		State:        j.state,
		Signal:       j.signal,
		StopReason:   j.reason,
		StopCause:    j.cause,
		StartedAt:    j.started,
		EndedAt:      j.ended,
		Timeout:      j.timeout,
		NotifyOnExit: j.notify,
		Ports:        slices.Clone(j.ports),
		Warnings:     slices.Clone(j.warnings),
		Services:     j.services.URLs(),
		Output:       j.lastStats,
	}
	if j.exitCode != nil {
		c := *j.exitCode
		in.ExitCode = &c
	}
	in.Output.Bytes = j.bytes
	in.Output.CutBytes = j.cutRaw + max(0, j.lineRaw-MaxLineBytes)
	in.Output.Released = j.released
	return in
}

// countLocked accounts a chunk of raw output: bytes, and the part of
// over-long lines the scrollback cuts.
func (j *job) countLocked(chunk []byte) {
	j.bytes += int64(len(chunk))
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			j.lineRaw += int64(len(chunk))
			return
		}
		j.lineRaw += int64(i)
		j.cutRaw += max(0, j.lineRaw-MaxLineBytes)
		j.lineRaw = 0
		chunk = chunk[i+1:]
	}
}

func (j *job) isExited() bool {
	select {
	case <-j.exited:
		return true
	default:
		return false
	}
}
