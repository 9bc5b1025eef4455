// Package tools defines tools for language models and a dispatcher that any
// agent framework can call: a tool name, JSON arguments and the calling
// owner go in; a structured result plus a bounded text rendering for the
// model, or a [*ToolError] carrying a stable code and one sentence on what
// to do next, come out.
//
// The dispatcher is generic: every layer adds its tools to the same
// [Dispatcher] (the ptysession facade adds pty_*, the jobs layer bg_*), and
// the command serves all of them over the Model Context Protocol.
//
// A tool's schemas are derived from the Go types of its arguments and its
// result with [InferSchema] (github.com/google/jsonschema-go), the
// descriptions taken from `jsonschema:"..."` struct tags, so that a schema
// cannot drift from the type the handler decodes. Arguments are checked
// against the input schema by the same library before the handler runs:
// unknown fields, wrong types, missing required fields and out-of-range
// values are INVALID_ARGUMENT errors that name the field.
package tools
