package jobs

// State is where a job is in its life.
type State string

// Job states. A job moves running -> stopping -> one of the final states,
// or from running straight to finished or failed when its program ends on
// its own.
const (
	StateRunning  State = "running"  // the program runs
	StateStopping State = "stopping" // a stop was requested and is under way
	StateFinished State = "finished" // the program exited with code 0
	StateFailed   State = "failed"   // the program exited non-zero or was killed by a signal it was not sent by a stop
	StateStopped  State = "stopped"  // a stop ended it; see StopReason
)

// Final reports whether s is a final state.
func (s State) Final() bool {
	return s == StateFinished || s == StateFailed || s == StateStopped
}

// Valid reports whether s is one of the job states.
func (s State) Valid() bool {
	switch s {
	case StateRunning, StateStopping, StateFinished, StateFailed, StateStopped:
		return true
	}
	return false
}

// StopReason says why a stopped job was stopped.
type StopReason string

// Stop reasons.
const (
	ReasonUser     StopReason = "user"     // Stop or StopGroup
	ReasonTimeout  StopReason = "timeout"  // the job's timeout passed
	ReasonShutdown StopReason = "shutdown" // the manager shut down
	// ReasonForced: the job did not end within the grace period after
	// SIGTERM (or the stop asked for force) and was killed. Info.StopCause
	// keeps what asked for the stop.
	ReasonForced StopReason = "forced"
)
