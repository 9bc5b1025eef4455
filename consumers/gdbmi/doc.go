// Package gdbmi speaks GDB's machine interface (GDB/MI).
//
// It has two halves. The parser ([ParseLine], [Framer], [Reader]) reads the
// complete MI output grammar: result records, async exec/status/notify
// records, console/target/log stream records and the "(gdb)" prompt, with
// tokens, every value shape (c-strings, tuples, lists of values, lists of
// results with repeated keys kept in order) and every c-string escape
// (including 3-digit octal escapes, reassembled into the original bytes). It
// has no line-length limit, never panics, and reports malformed input as a
// [*SyntaxError] with the byte column. Values form a small typed model
// ([Value]: string, tuple or list) with lookups, and [Decode] fills Go
// structs tagged `mi:"name"`.
//
// The client ([Start], [StartLocal], [Client]) runs gdb on a ptyseam
// session with terminal echo off, gives the debugged program a terminal of
// its own that is the program's controlling terminal (Ctrl-C on it stops
// the program in gdb), passes [Options.Args] byte for byte as the
// program's argv, correlates every command with a unique token, completes
// it on that token's result record (never on the prompt), turns ^error
// into an [*MIError], returns exactly a CLI command's own text from
// [Client.Console], delivers async events in order on a channel, and fails
// every pending call at once with [ErrExited] when gdb dies. Typed helpers
// cover breakpoints, watchpoints, execution, stacks and variables in any
// thread or frame ([InThread], [InFrame]), variable objects, attach and
// detach, and waiting for the program's output.
package gdbmi
