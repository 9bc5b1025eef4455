// Package jobtools defines the model-facing background-job tools —
// bg_launch, bg_send, bg_read, bg_list, bg_stop, bg_stop_group and bg_drop
// — over a jobs.Manager, as ptysession/tools values: [Tools] returns
// []tools.Tool to add to the same tools.Dispatcher that serves the pty
// tools. Each handler takes JSON arguments, the calling owner and the
// dispatcher's progress callback (unused: the bg_* calls return at once)
// and returns a structured result and a text rendering bounded to
// core.DefaultMaxTextBytes. Errors are *tools.ToolError values carrying the error
// code string and a hint naming the bg_* tool to use next.
//
// Handlers check their own arguments (unknown fields, types and ranges are
// INVALID_ARGUMENT errors naming the field, by tools.DecodeArgs and their
// own range checks), so they behave the same whether or not a dispatcher
// validated the arguments against the input schema first.
package jobtools
