package screen

import (
	"encoding/json"

	"github.com/ptyseam/ptyseam/core"
)

// The JSON Schemas of the screen tools.

type jsonObj = map[string]any

func object(required []string, props jsonObj) jsonObj {
	o := jsonObj{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func str(desc string) jsonObj     { return jsonObj{"type": "string", "description": desc} }
func boolean(desc string) jsonObj { return jsonObj{"type": "boolean", "description": desc} }
func integer(desc string, minimum, maximum int) jsonObj {
	o := jsonObj{"type": "integer", "description": desc}
	if minimum >= 0 {
		o["minimum"] = minimum
	}
	if maximum >= 0 {
		o["maximum"] = maximum
	}
	return o
}

func idProp() jsonObj {
	return jsonObj{"type": "string", "minLength": 1, "description": "The sessionId that pty_open returned."}
}

func snapshotSchema() jsonObj {
	return object([]string{"rows", "cursor", "altScreen", "title", "size", "changed", "changedOnly", "approximate"}, jsonObj{
		"rows": jsonObj{"type": "array", "items": jsonObj{"type": "string"},
			"description": "The screen's rows from the top (trailing spaces trimmed); with changedOnly, only the changed rows, in the order of changed."},
		"cursor": object([]string{"row", "col", "visible"}, jsonObj{
			"row":     integer("Cursor row, from 0 at the top.", 0, -1),
			"col":     integer("Cursor column, from 0 at the left.", 0, -1),
			"visible": boolean("The program shows the cursor."),
		}),
		"altScreen": boolean("The program uses the alternate screen (full-screen programs such as vim, less, top)."),
		"title":     str("The window title the program set, or empty."),
		"size": object([]string{"rows", "cols"}, jsonObj{
			"rows": integer("Rows.", 1, maxDimension),
			"cols": integer("Columns.", 1, maxDimension),
		}),
		"changed":     jsonObj{"type": "array", "items": jsonObj{"type": "integer", "minimum": 0}, "description": "Row numbers that changed since your previous look at this screen."},
		"changedOnly": boolean("rows holds only the changed rows."),
		"approximate": boolean("Part of the output was missed; the screen may be off until the program redraws (Ctrl-L often does)."),
	})
}

func statusSchema() jsonObj {
	return jsonObj{
		"type":                 "object",
		"description":          `The program's status: {"kind":"running"}, or {"kind":"exited"} with exitCode (normal exit) or signal (killed).`,
		"required":             []string{"kind"},
		"additionalProperties": false,
		"properties": jsonObj{
			"kind":     jsonObj{"type": "string", "enum": []string{string(core.StatusRunning), string(core.StatusExited)}},
			"exitCode": jsonObj{"type": "integer", "description": "Exit code of an exited program."},
			"signal":   jsonObj{"type": []string{"string", "null"}, "description": `Signal that killed the program ("SIGKILL").`},
			"reason":   jsonObj{"type": "string", "description": "What ended the session when the code alone does not say."},
		},
	}
}

func waitReasonSchema() jsonObj {
	return jsonObj{
		"type": "string",
		"enum": []string{
			string(core.WaitPrompt), string(core.WaitStdinRead), string(core.WaitInferredIdle),
			string(core.WaitTimeout), string(core.WaitSessionExit), string(core.WaitCancelled),
		},
		"description": "Why control came back: stdin_read (the program waits for the next key), prompt (a shell command finished), inferred_idle (output went quiet), timeout, session_exit, cancelled.",
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the schemas are static; a failure is a programming error every test catches
	}
	return b
}

var (
	screenInput = object([]string{"id"}, jsonObj{
		"id":          idProp(),
		"changedOnly": boolean("Return only the rows that changed since your previous look at this screen (default false)."),
	})
	screenOutput = snapshotSchema()

	resizeInput = object([]string{"id", "rows", "cols"}, jsonObj{
		"id":   idProp(),
		"rows": integer("New number of rows.", 1, maxDimension),
		"cols": integer("New number of columns.", 1, maxDimension),
	})
	resizeOutput = object([]string{"rows", "cols"}, jsonObj{
		"rows": integer("Rows now.", 1, maxDimension),
		"cols": integer("Columns now.", 1, maxDimension),
	})

	keysInput = object([]string{"id"}, jsonObj{
		"id":   idProp(),
		"text": str("Literal text typed first, as is (no Enter is added)."),
		"keys": jsonObj{
			"type":        "array",
			"items":       jsonObj{"type": "string", "minLength": 1},
			"maxItems":    1000,
			"description": `Key names pressed after text, in order: Enter, Tab, Backspace, Escape, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, a single character ("q", ":"), or combinations: "C-c" (Ctrl-C), "C-x", "M-x" (Alt-x), "C-M-x", "C-Up", "S-Tab".`,
		},
		"changedOnly": boolean("Return only the screen rows that changed since your previous look (default false)."),
	})
	keysOutput = object([]string{"waitReason", "status", "screen"}, jsonObj{
		"waitReason": waitReasonSchema(),
		"status":     statusSchema(),
		"screen":     snapshotSchema(),
	})
)
