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
//   - Output is returned once: open, send and tail each move your tail
//     position past the output they return, so a later tail starts after
//     it; to read output again, page it by line number with Read. When the
//     backlog exceeds the budget the newest lines are returned, marked
//     truncated with the exact number of lines skipped. Concatenating every
//     open's, send's and tail's output gives the session's cleaned output
//     exactly, unless a result says what it skipped.
//   - Every result is bounded ([Options.MaxResultBytes]).
//   - Sessions have names ([Sessions.Find], [Sessions.OpenOrGet]); sends
//     can leave out the echo and the prompt and queue behind one another.
//   - An [Agent] is one agent's handle: its calls, [Agent.Started] (its
//     terminals and, through attached companions, its background jobs) and
//     [Agent.Dispose] (jobs first, then terminals).
//   - [NewLocal] wires the default local backends, and the common core
//     types have names here ([Owner], [SessionID], [Status], ...), so the
//     common path imports ptysession alone.
//
// The model-facing tools over a Sessions (pty_open, pty_send, ...) live in
// package ptysession/ptytools, so that a program using only the facade
// links no JSON Schema code; the text they return is the Render functions
// here.
package ptysession
