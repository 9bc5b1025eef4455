// Package testharness holds ptyseam's reference implementation of the seam
// surface and the conformance suites every implementation runs.
//
//   - [Registry] is a fake terminals registry: a small, obviously correct
//     implementation of [core.Terminals] that keeps its own books of who
//     owns what (ids, owners, names, publication order, disposal) and runs
//     every session on a [core.Service] underneath, whose backends run real
//     programs on real terminals. It is a reference, not a mock: the
//     conformance suite and the ptysession facade's tests run against it
//     and against core.Service, and must pass on both.
//   - [BuildChildren] builds the harness's interactive child programs (an
//     echo REPL, a password prompt, a flooder, a daemonising child, a child
//     that ignores SIGTERM, one that sends terminal queries, ...), see the
//     children directory.
//   - [TestBackend] checks any [core.Backend] and [TestTerminals] any
//     [core.Terminals], in the style of testing/fstest.TestFS.
//
// Packages that use the children end their TestMain with [VerifyTestMain]
// (or call [Cleanup]), which removes the built binary, fails the run if a
// child process survived, and checks for leaked goroutines.
package testharness
