// Package threadrepl is the body of a test program: an echo REPL that reads
// every line of its terminal on a new OS thread, and makes each of those
// threads block in its read with the same number of voluntary context
// switches (Target). To anything that tells one wait for input from the
// next by the wake-ups of the waiting task alone, every wait of this REPL
// looks like the first: it is the adversary of such a measure. Go, JVM and
// Node programs change their reading thread in the ordinary course of
// things (a goroutine returning from a blocking read may continue on
// another thread); this program does it on every line, on purpose.
//
// The REPL prints "> " (no newline), answers each line with the line
// itself, and on "exit" prints "bye" and exits 0 (also at end of input).
// It runs only on Linux, which counts context switches per thread in
// /proc; elsewhere Run fails with a message.
package threadrepl

// Target is the voluntary context switch count every reading thread has
// while it is blocked in its read: each thread sleeps briefly until it has
// Target-1, then blocks once more, in the read.
const Target = 100
