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
// The client ([Start], [Client]) runs gdb on a ptyseam session with terminal
// echo off, gives the debugged program a terminal of its own, correlates
// every command with a unique token, waits for that token's result record
// and the prompt that follows it, turns ^error into an [*MIError], delivers
// async events in order on a channel, and fails every pending call at once
// with [ErrExited] when gdb dies.
package gdbmi
