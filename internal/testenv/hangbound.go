package testenv

import "time"

// HangBound is the failure bound for a wait in a test: how long a test
// waits for an event (a session's exit, a line of output, a process
// gone) before it fails the wait as a hang. It is not a schedule and not
// an assertion: a test waits for the event itself (core.Service.Wait,
// pty_wait, a tap, a condition it polls), and the bound only turns a
// hang into a failure that names what never came instead of the test
// binary's panic after -timeout.
//
// Its size is set by the slowest green run, not the usual one. Tests run
// on a shared two-core machine beside other builds and test suites; at a
// load average near 60, a shell that exits in 50 ms on a quiet machine
// was seen to take over 10 s to be reaped, and bounds of 2 to 20 s failed
// green tests. A passing test never waits for the bound, so a generous
// one costs nothing except when something truly hangs; two minutes is
// far above any delay seen under load, and still leaves several waits in
// one test well inside the suite's -timeout.
//
// A bound that is part of what a test asserts (a product promise such
// as "the processes are gone within the close grace") is not a hang
// bound: keep it as its own named value next to the promise it checks.
const HangBound = 2 * time.Minute
