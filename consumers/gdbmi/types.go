package gdbmi

// Frame is a stack frame as gdb describes it in *stopped records, stack
// lists and thread info.
type Frame struct {
	Level    FrameLevel `mi:"level"`
	Addr     uint64     `mi:"addr"`
	Func     string     `mi:"func"`
	File     string     `mi:"file"`
	Fullname string     `mi:"fullname"`
	Line     int        `mi:"line"`
	// From names the shared library of a frame without debug info.
	From string `mi:"from"`
	Arch string `mi:"arch"`
	// Args holds the frame's arguments where gdb lists them.
	Args []Variable `mi:"args"`
}

// Variable is a named value: an argument or a local.
type Variable struct {
	Name string `mi:"name"`
	// Type is set when gdb was asked for types (simple values).
	Type  string `mi:"type"`
	Value string `mi:"value"`
	// Arg is true for function arguments in -stack-list-variables.
	Arg bool `mi:"arg"`
}

// StoppedEvent is a decoded *stopped record.
type StoppedEvent struct {
	// Reason is gdb's reason ([StopBreakpointHit], [StopEndSteppingRange],
	// [StopSignalReceived], [StopExited], ...). It is empty for a stop gdb
	// gives no reason for.
	Reason StopReason `mi:"reason"`
	// Frame is where the thread stopped (nil once the program is gone).
	Frame *Frame `mi:"frame"`
	// BreakpointNumber is the bkptno of a breakpoint hit ("" otherwise).
	BreakpointNumber BreakpointNumber `mi:"bkptno"`
	// Disp is the breakpoint's disposition ("keep", "del").
	Disp string `mi:"disp"`
	// ThreadID is the thread that stopped.
	ThreadID ThreadID `mi:"thread-id"`
	// StoppedThreads is "all", or a list of thread ids in non-stop mode.
	StoppedThreads Value `mi:"stopped-threads"`
	// SignalName and SignalMeaning describe a signal ("SIGSEGV",
	// "Segmentation fault").
	SignalName    string `mi:"signal-name"`
	SignalMeaning string `mi:"signal-meaning"`
	// ExitCode is the exit code of reason "exited" (gdb prints it in
	// octal; it is decoded). 0 for other reasons.
	ExitCode int `mi:"exit-code"`
	// ReturnValue and ResultVar describe a finished function.
	ReturnValue string `mi:"return-value"`
	ResultVar   string `mi:"gdb-result-var"`
	// Core is the processor core the thread last ran on.
	Core string `mi:"core"`
	// Watchpoint is the watchpoint of a "watchpoint-trigger",
	// "read-watchpoint-trigger" or "access-watchpoint-trigger" stop, and
	// the watchpoint that went out of scope for "watchpoint-scope" (gdb
	// deletes it then); nil otherwise.
	Watchpoint *Watchpoint `mi:"-"`
	// Value holds the watched expression's values at a watchpoint stop.
	Value *WatchValue `mi:"value"`
	// Record is the record the event was decoded from.
	Record Record `mi:"-"`
}

// StoppedThreadIDs decodes StoppedThreads: all is true when gdb stopped
// every thread ("all", all-stop mode), else ids lists the stopped threads
// (non-stop mode).
func (e *StoppedEvent) StoppedThreadIDs() (all bool, ids []ThreadID) {
	if e.StoppedThreads.Str() == "all" {
		return true, nil
	}
	for _, v := range e.StoppedThreads.Elems() {
		if n, err := v.Int(); err == nil {
			ids = append(ids, ThreadID(n))
		}
	}
	return false, ids
}

// Exited reports whether the stop means the program is gone (exited
// normally, with a code, or by a signal).
func (e *StoppedEvent) Exited() bool {
	switch e.Reason {
	case StopExitedNormally, StopExited, StopExitedSignalled:
		return true
	}
	return false
}

// Breakpoint is a breakpoint as -break-insert, -break-list and
// =breakpoint-created/modified describe it.
type Breakpoint struct {
	// Number is "1", or "1.2" for a location of a multi-location one.
	Number BreakpointNumber `mi:"number"`
	Type   string           `mi:"type"`
	Disp   string           `mi:"disp"`
	// Enabled reports enabled="y".
	Enabled bool `mi:"enabled"`
	// Addr is the address ("0x...", "<PENDING>" or "<MULTIPLE>").
	Addr             string   `mi:"addr"`
	Func             string   `mi:"func"`
	File             string   `mi:"file"`
	Fullname         string   `mi:"fullname"`
	Line             int      `mi:"line"`
	Times            int      `mi:"times"`
	Cond             string   `mi:"cond"`
	Pending          string   `mi:"pending"`
	OriginalLocation string   `mi:"original-location"`
	ThreadGroups     []string `mi:"thread-groups"`
	// Thread is the thread a thread-specific breakpoint stops (0: all).
	Thread ThreadID `mi:"thread"`
	// Locations lists the locations of a multi-location breakpoint (MI3).
	Locations []Breakpoint `mi:"locations"`
}

// Thread is one entry of -thread-info.
type Thread struct {
	ID       ThreadID `mi:"id"`
	TargetID string   `mi:"target-id"`
	Name     string   `mi:"name"`
	State    string   `mi:"state"`
	Core     string   `mi:"core"`
	Frame    *Frame   `mi:"frame"`
}

// ThreadInfo is the result of -thread-info.
type ThreadInfo struct {
	Threads         []Thread `mi:"threads"`
	CurrentThreadID ThreadID `mi:"current-thread-id"`
}

// ThreadNotice is a decoded =thread-created, =thread-exited or
// =thread-selected notification.
type ThreadNotice struct {
	// ID is gdb's thread id.
	ID ThreadID `mi:"id"`
	// GroupID is the thread group (inferior), "i1".
	GroupID string `mi:"group-id"`
}

// Library is a decoded =library-loaded or =library-unloaded notification.
type Library struct {
	ID            string `mi:"id"`
	TargetName    string `mi:"target-name"`
	HostName      string `mi:"host-name"`
	SymbolsLoaded bool   `mi:"symbols-loaded"`
	ThreadGroup   string `mi:"thread-group"`
}
