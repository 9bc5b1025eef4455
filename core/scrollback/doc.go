// Package scrollback turns a raw terminal output stream into bounded,
// numbered lines of clean text.
//
// A [Buffer] strips ANSI control sequences (CSI, OSC, DCS and the other
// string sequences, two- and three-byte ESC sequences) with their state
// carried across writes, treats "\r\n" as a newline, lets a lone "\r"
// rewind the current line as a terminal would (so a progress bar leaves one
// line, not thousands), applies the cursor moves and character edits line
// editors redraw with (readline, prompt_toolkit) to the current line,
// replaces invalid UTF-8 with U+FFFD, and keeps at most
// a bounded number of lines and bytes. Lines keep absolute numbers that stay
// valid after old lines are dropped. The current unterminated line (a prompt
// such as ">>> " or "Password: ") is visible at once.
//
// A [Cursor] reads a Buffer (or anything that serves pages) incrementally:
// concatenating every delta a cursor returns gives exactly the cleaned
// output, unless a delta says it was truncated, and then it says how many
// lines were skipped.
//
// The package is pure: it knows nothing of processes or terminals, so the
// test harness and the jobs layer use it too.
package scrollback
