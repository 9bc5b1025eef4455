package screen

import (
	"encoding/json"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// The arguments of the screen tools, as their handlers decode them. The
// tools' schemas are derived from these types and from the results'
// (see tools.InferSchema); the `jsonschema` tags are the descriptions a
// model reads.

type screenArgs struct {
	ID          string `json:"id" jsonschema:"sessionId from pty_open."`
	ChangedOnly bool   `json:"changedOnly,omitempty" jsonschema:"Only the rows that changed since your previous look (default false)."`
}

type resizeArgs struct {
	ID   string `json:"id" jsonschema:"sessionId from pty_open."`
	Rows int    `json:"rows" jsonschema:"New number of rows."`
	Cols int    `json:"cols" jsonschema:"New number of columns."`
}

type keysArgs struct {
	ID          string   `json:"id" jsonschema:"sessionId from pty_open."`
	Text        string   `json:"text,omitempty" jsonschema:"Literal text typed first, as is (no Enter is added)."`
	Keys        []string `json:"keys,omitempty" jsonschema:"Key names pressed after text, in order: Enter, Tab, Backspace, Escape, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, a single character (\"q\", \":\"), or combinations: \"C-c\" (Ctrl-C), \"C-x\", \"M-x\" (Alt-x), \"C-M-x\", \"C-Up\", \"S-Tab\"."`
	ChangedOnly bool     `json:"changedOnly,omitempty" jsonschema:"Only the rows that changed since your previous look (default false)."`
	Paced       bool     `json:"paced,omitempty" jsonschema:"One key at a time, each once the last was read (top's prompts)."`
}

// SnapshotSchema is the schema option for a result type that holds a
// [Snapshot] (as [WithFullScreen]'s do): a Snapshot is described as it
// marshals.
func SnapshotSchema() tools.SchemaOption { return tools.MarshalsAs[Snapshot, snapshotJSON]() }

// schemaOf derives a screen tool's schema, on first use
// (tools.LazySchema: a program that never lists the tools never builds
// them); a Snapshot is described as it marshals.
func schemaOf[T any](opts ...tools.SchemaOption) func() json.RawMessage {
	return tools.LazySchema[T](append(opts, SnapshotSchema())...)
}

var (
	screenInput  = schemaOf[screenArgs](tools.NonEmpty("id"))
	screenOutput = schemaOf[Snapshot]()
	resizeInput  = schemaOf[resizeArgs](tools.NonEmpty("id"), tools.Range("rows", 1, core.MaxDimension), tools.Range("cols", 1, core.MaxDimension))
	resizeOutput = schemaOf[ResizeResult]()
	keysInput    = schemaOf[keysArgs](tools.NonEmpty("id"), tools.Items("keys", 0, 1000), tools.NonEmpty("keys[]"))
	keysOutput   = schemaOf[KeysToolResult]()
	// sendOutput, openOutput and waitOutput are pty_send's, pty_open's
	// and pty_wait's once FullScreenSend, FullScreenOpen and
	// FullScreenWait wrap them.
	sendOutput = schemaOf[SendResult]()
	openOutput = schemaOf[OpenResult]()
	waitOutput = schemaOf[WaitResult]()
)
