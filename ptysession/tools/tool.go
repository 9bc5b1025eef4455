package tools

import (
	"context"
	"encoding/json"

	"github.com/ptyseam/ptyseam/core"
)

// Definition describes a tool to a model: its name, a description the model
// can act on, and JSON Schemas (draft 2020-12, self-contained; derive
// them from Go types with [InferSchema]) for its input and its structured
// output. The JSON field names are the Model Context Protocol's.
type Definition struct {
	// Name is the tool's unique name: 1 to 64 characters of [A-Za-z0-9_-].
	Name string `json:"name"`
	// Title is an optional human-readable display name.
	Title string `json:"title,omitempty"`
	// Description tells the model what the tool does and when to use it.
	Description string `json:"description"`
	// InputSchema is the JSON Schema of the arguments object; its type
	// must be "object".
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema is the JSON Schema of Result.Structured; optional, and
	// when set its type must be "object".
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// ProgressUpdate is a report from a long-running tool call.
type ProgressUpdate struct {
	// Message is a short human sentence ("output so far").
	Message string
	// Output is new output since the previous update, if the tool streams
	// output.
	Output string
}

// Handler runs one tool call. args has already been validated against the
// tool's input schema. progress is never nil. A handler returns a
// [*ToolError] or an error carrying a core code (see core.CodeOf); the
// dispatcher turns other errors into INTERNAL tool errors.
type Handler func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(ProgressUpdate)) (Result, error)

// Typed returns a Handler that decodes a call's arguments into an A with
// [DecodeArgs] (an INVALID_ARGUMENT tool error when they do not fit) and
// runs h with them.
func Typed[A any](h func(ctx context.Context, owner *core.Owner, args A, progress func(ProgressUpdate)) (Result, error)) Handler {
	return func(ctx context.Context, owner *core.Owner, raw json.RawMessage, progress func(ProgressUpdate)) (Result, error) {
		var a A
		if err := DecodeArgs(raw, &a); err != nil {
			return Result{}, err
		}
		return h(ctx, owner, a, progress)
	}
}

// Tool is a definition and the handler that serves it.
type Tool struct {
	Definition
	// Handler serves calls of the tool.
	Handler Handler
}

// Result is a successful tool call's outcome.
type Result struct {
	// Structured marshals to a JSON object that validates against the
	// tool's output schema.
	Structured any
	// Text is the rendering for the model: a one-line summary (see
	// [Headline]), then the payload. The dispatcher bounds it (see
	// Options.MaxTextBytes) and marks where it was cut. A server that sends
	// Structured may send only the summary line beside it, so that the
	// payload is sent once.
	Text string
}
