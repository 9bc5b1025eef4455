// Package jobtools defines the model-facing background-job tools —
// bg_launch, bg_send, bg_read, bg_list, bg_stop, bg_stop_group and bg_drop
// — over a jobs.Manager, in the same shape as the pty tools of
// ptysession/tools: a name, a description, JSON Schemas of the input and of
// the structured output, and a handler that takes JSON arguments and the
// calling owner and returns a structured result and a bounded text
// rendering. Errors are *ToolError values carrying the error code string
// and a hint naming the tool to use next.
//
// The types mirror ptysession/tools field for field (Definition and Result
// convert directly), so a dispatcher or MCP server serving the pty tools
// serves these too; this package depends only on core and jobs.
package jobtools
