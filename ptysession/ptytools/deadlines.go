package ptytools

import (
	"fmt"
	"time"
)

// deadlineArgs are the optional deadline fields of pty_open and pty_send.
// The dispatcher bounds each by the input schema (1 to Options.MaxTimeout
// in ms) and the facade checks them again.
type deadlineArgs struct {
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	QuietMs   int64 `json:"quietMs,omitempty"`
}

// durations converts the fields (0: the default).
func (a deadlineArgs) durations() (timeout, quiet time.Duration) {
	return time.Duration(a.TimeoutMs) * time.Millisecond, time.Duration(a.QuietMs) * time.Millisecond
}

// deadlineText tells a model, in pty_open's and pty_send's descriptions,
// when to set timeoutMs and quietMs.
func deadlineText(max time.Duration) string {
	return fmt.Sprintf("Optional timeoutMs and quietMs (ms, at most %d) change those waits for this call: timeoutMs alone "+
		"(a long build or test run) waits for the prompt, a read of input or a question, the exit or that deadline; "+
		"quietMs also ends the wait on that much silence.", max.Milliseconds())
}

// openDeadlineText is deadlineText for pty_open, whose waits are pty_send's.
func openDeadlineText(max time.Duration) string {
	return fmt.Sprintf("Optional timeoutMs and quietMs (ms, at most %d) change those waits for this call, as in pty_send "+
		"(raise timeoutMs for a long build).", max.Milliseconds())
}
