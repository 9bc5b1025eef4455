package jobtools

import (
	"context"
	"encoding/json"

	"github.com/ptyseam/ptyseam/core"
)

// Definition describes a tool to a model. The JSON field names are the
// Model Context Protocol's; the fields match ptysession/tools.Definition.
type Definition struct {
	// Name is the tool's unique name.
	Name string `json:"name"`
	// Title is a human-readable display name.
	Title string `json:"title,omitempty"`
	// Description tells the model what the tool does and when to use it.
	Description string `json:"description"`
	// InputSchema is the JSON Schema of the arguments object.
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema is the JSON Schema of Result.Structured.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// Handler runs one tool call on behalf of owner. Empty args and JSON null
// count as {}. It checks its arguments itself (unknown fields, types and
// ranges are INVALID_ARGUMENT errors naming the field), so it can be
// served with or without a schema-validating dispatcher.
type Handler func(ctx context.Context, owner *core.Owner, args json.RawMessage) (Result, error)

// Tool is a definition and the handler that serves it.
type Tool struct {
	Definition
	Handler Handler
}

// Result is a successful call's outcome; its fields match
// ptysession/tools.Result.
type Result struct {
	// Structured marshals to a JSON object valid against the tool's output
	// schema.
	Structured any
	// Text is the rendering for the model, at most MaxTextBytes long.
	Text string
}

// MaxTextBytes bounds Result.Text.
const MaxTextBytes = 48 << 10
