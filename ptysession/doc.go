// Package ptysession is ptyseam's protocol-agnostic facade over the
// terminal seam: open a program on a terminal, send it input, tail what it
// printed since the last look, page back through its scrollback, signal it
// and close it, all on behalf of an explicit owner.
//
// A [Sessions] works over any core.Terminals: the real *core.Service and the
// testharness's reference registry satisfy it, and the package's tests run
// the same suite against both. The facade holds no terminal mechanics; it
// adds what a caller (a model's tool call, a debugger consumer) needs on top
// of the seam:
//
//   - Open types the command into a shell-type backend (after exporting env
//     with POSIX quoting where the backend only takes text), or splits it
//     into argv for an argv backend such as "exec".
//   - Tail is an incremental cursor per (owner, session): it returns only
//     output since the previous tail, never resends, and when the backlog
//     exceeds the budget returns the newest lines, marked truncated with
//     the exact number of lines skipped. Concatenating every tail gives the
//     session's cleaned output exactly, unless a tail says what it skipped.
//   - Every result is bounded ([Options.MaxResultBytes]).
//
// [PtyTools] turns a Sessions into the model-facing tools pty_open,
// pty_send, pty_tail, pty_close, pty_list, pty_read and pty_signal for a
// tools.Dispatcher.
package ptysession
