// Package testenv keeps a test process's state out of what every process
// of the machine shares: a directory of its own in the temporary
// directory (ProcessDir), and a HOME of its own for the programs its tests
// start (PrivateHome). The test harness (testharness) wraps both and
// removes them at the process's end; packages below it (core, screen)
// call them from their TestMain. It also holds HangBound, the one
// failure bound for a test's waits, and ReservePort, a port for a server
// the test starts that no other process can take meanwhile
// (docs/testing.md).
package testenv
