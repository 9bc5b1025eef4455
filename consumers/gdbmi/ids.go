package gdbmi

import "strconv"

// ThreadID is gdb's global thread number ("id" in -thread-info,
// "thread-id" in *stopped, the N of --thread N and -thread-select N).
// Threads are numbered from 1; 0 means no thread (or, in a request, the
// selected one).
type ThreadID int

// String returns the id as gdb prints it.
func (id ThreadID) String() string { return strconv.Itoa(int(id)) }

// FrameLevel is a stack frame's level: 0 is the innermost frame, the
// caller of frame N is N+1 (the N of --frame N).
type FrameLevel int

// String returns the level as gdb prints it.
func (l FrameLevel) String() string { return strconv.Itoa(int(l)) }

// BreakpointNumber is gdb's number of a breakpoint, watchpoint or
// catchpoint as gdb prints it: "3", or "3.2" for the second location of
// breakpoint 3 (locations of a multi-location breakpoint can be
// enabled and disabled on their own). It is what the break commands take
// back (-break-delete 3, -break-disable 3.2), and the type of
// [Breakpoint.Number], [Watchpoint.Number] and
// [StoppedEvent.BreakpointNumber] (empty when the stop was not at one).
type BreakpointNumber string

// String returns the number as gdb prints it.
func (n BreakpointNumber) String() string { return string(n) }
