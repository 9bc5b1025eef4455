// Package ptytools holds the model-facing pty tools (pty_open, pty_send,
// pty_tail, pty_close, pty_list, pty_read, pty_signal, pty_wait and
// pty_search) over a [ptysession.Sessions]: each translates its JSON
// arguments into a facade call and the result into text (the facade's
// Render functions) and structured content. Add them to a
// [tools.Dispatcher]. The facade itself does not import this package, so
// a program that uses only the facade links no JSON Schema code.
package ptytools
