package gdbmi

// StopReason is the reason gdb gives for a *stopped record
// ([StoppedEvent.Reason]). The constants are the reasons gdb's manual
// lists; gdb may add others, which arrive as they are.
type StopReason string

// The reasons of *stopped records.
const (
	// StopBreakpointHit: a breakpoint was hit (StoppedEvent.BreakpointNumber).
	StopBreakpointHit StopReason = "breakpoint-hit"
	// StopWatchpointTrigger: a write watchpoint's value changed
	// (StoppedEvent.Watchpoint, StoppedEvent.Value Old and New).
	StopWatchpointTrigger StopReason = "watchpoint-trigger"
	// StopReadWatchpointTrigger: a read watchpoint's value was read.
	StopReadWatchpointTrigger StopReason = "read-watchpoint-trigger"
	// StopAccessWatchpointTrigger: an access watchpoint's value was read
	// or written.
	StopAccessWatchpointTrigger StopReason = "access-watchpoint-trigger"
	// StopWatchpointScope: a watched local went out of scope with its
	// frame; gdb deleted the watchpoint (StoppedEvent.Watchpoint names it).
	StopWatchpointScope StopReason = "watchpoint-scope"
	// StopFunctionFinished: -exec-finish returned from the function
	// (StoppedEvent.ReturnValue).
	StopFunctionFinished StopReason = "function-finished"
	// StopLocationReached: -exec-until reached its location.
	StopLocationReached StopReason = "location-reached"
	// StopEndSteppingRange: a step or next ended.
	StopEndSteppingRange StopReason = "end-stepping-range"
	// StopSignalReceived: the program got a signal (StoppedEvent.SignalName;
	// SIGINT for Interrupt).
	StopSignalReceived StopReason = "signal-received"
	// StopExited: the program exited with a non-zero code
	// (StoppedEvent.ExitCode).
	StopExited StopReason = "exited"
	// StopExitedNormally: the program exited with code 0.
	StopExitedNormally StopReason = "exited-normally"
	// StopExitedSignalled: the program was killed by a signal
	// (StoppedEvent.SignalName).
	StopExitedSignalled StopReason = "exited-signalled"
	// StopSolibEvent: a shared library was loaded or unloaded (with
	// stop-on-solib-events set).
	StopSolibEvent StopReason = "solib-event"
	// StopFork and StopVfork: the program forked (with a catchpoint).
	StopFork  StopReason = "fork"
	StopVfork StopReason = "vfork"
	// StopSyscallEntry and StopSyscallReturn: a system call catchpoint.
	StopSyscallEntry  StopReason = "syscall-entry"
	StopSyscallReturn StopReason = "syscall-return"
	// StopExec: the program called exec (with a catchpoint).
	StopExec StopReason = "exec"
	// StopNoHistory: reverse execution ran out of recorded history.
	StopNoHistory StopReason = "no-history"
)
