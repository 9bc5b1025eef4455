package gdbmi

import (
	"slices"
	"testing"
)

// TestStopReasonsAreNamed: every *stopped reason in the recorded
// transcripts of a real gdb decodes to a named StopReason, and the
// exits among them are the ones Exited reports.
func TestStopReasonsAreNamed(t *testing.T) {
	named := []StopReason{
		StopBreakpointHit, StopWatchpointTrigger, StopReadWatchpointTrigger, StopAccessWatchpointTrigger,
		StopWatchpointScope, StopFunctionFinished, StopLocationReached, StopEndSteppingRange,
		StopSignalReceived, StopExited, StopExitedNormally, StopExitedSignalled, StopSolibEvent,
		StopFork, StopVfork, StopSyscallEntry, StopSyscallReturn, StopExec, StopNoHistory,
	}
	seen := map[StopReason]bool{}
	for name, data := range transcripts(t) {
		for _, l := range frameAll(data) {
			if l.Err != nil || l.Record.Type != RecordExec || l.Record.Class != "stopped" {
				continue
			}
			st := decodeStopped(l.Record)
			if !slices.Contains(named, st.Reason) {
				t.Errorf("%s line %d: reason %q has no constant", name, l.Num, st.Reason)
			}
			seen[st.Reason] = true
			exit := st.Reason == StopExited || st.Reason == StopExitedNormally || st.Reason == StopExitedSignalled
			if st.Exited() != exit {
				t.Errorf("%s line %d: %q Exited() = %v", name, l.Num, st.Reason, st.Exited())
			}
		}
	}
	// The transcripts hold these; a recording that lost them would make
	// the test above vacuous.
	for _, r := range []StopReason{StopBreakpointHit, StopEndSteppingRange, StopFunctionFinished,
		StopSignalReceived, StopExited, StopExitedNormally, StopExitedSignalled} {
		if !seen[r] {
			t.Errorf("no %q stop in the transcripts", r)
		}
	}
}
