package screen

import "github.com/ptyseam/ptyseam/ptysession/tools"

// The JSON Schemas of the screen tools, built with the ptysession/tools
// helpers and marshalled once, when the package is initialized.

func idProp() tools.Obj {
	return tools.Obj{"type": "string", "minLength": 1, "description": "The sessionId that pty_open returned."}
}

func snapshotSchema() tools.Obj {
	return tools.Object([]string{"rows", "cursor", "altScreen", "title", "size", "changed", "changedOnly", "approximate"}, tools.Obj{
		"rows": tools.StringList("The screen's rows from the top (trailing spaces trimmed); with changedOnly, only the changed rows, in the order of changed."),
		"cursor": tools.Object([]string{"row", "col", "visible"}, tools.Obj{
			"row":     tools.Integer("Cursor row, from 0 at the top.").Min(0),
			"col":     tools.Integer("Cursor column, from 0 at the left.").Min(0),
			"visible": tools.Boolean("The program shows the cursor."),
		}),
		"altScreen": tools.Boolean("The program uses the alternate screen (full-screen programs such as vim, less, top)."),
		"title":     tools.String("The window title the program set, or empty."),
		"size": tools.Object([]string{"rows", "cols"}, tools.Obj{
			"rows": tools.Integer("Rows.").Min(1).Max(maxDimension),
			"cols": tools.Integer("Columns.").Min(1).Max(maxDimension),
		}),
		"changed":     tools.Obj{"type": "array", "items": tools.Obj{"type": "integer", "minimum": 0}, "description": "Row numbers that changed since your previous look at this screen."},
		"changedOnly": tools.Boolean("rows holds only the changed rows."),
		"approximate": tools.Boolean("Part of the output was missed; the screen may be off until the program redraws (Ctrl-L often does)."),
	})
}

var (
	screenInput = tools.MustSchemaJSON(tools.Object([]string{"id"}, tools.Obj{
		"id":          idProp(),
		"changedOnly": tools.Boolean("Return only the rows that changed since your previous look at this screen (default false)."),
	}))
	screenOutput = tools.MustSchemaJSON(snapshotSchema())

	resizeInput = tools.MustSchemaJSON(tools.Object([]string{"id", "rows", "cols"}, tools.Obj{
		"id":   idProp(),
		"rows": tools.Integer("New number of rows.").Min(1).Max(maxDimension),
		"cols": tools.Integer("New number of columns.").Min(1).Max(maxDimension),
	}))
	resizeOutput = tools.MustSchemaJSON(tools.Object([]string{"rows", "cols"}, tools.Obj{
		"rows": tools.Integer("Rows now.").Min(1).Max(maxDimension),
		"cols": tools.Integer("Columns now.").Min(1).Max(maxDimension),
	}))

	keysInput = tools.MustSchemaJSON(tools.Object([]string{"id"}, tools.Obj{
		"id":   idProp(),
		"text": tools.String("Literal text typed first, as is (no Enter is added)."),
		"keys": tools.Obj{
			"type":        "array",
			"items":       tools.Obj{"type": "string", "minLength": 1},
			"maxItems":    1000,
			"description": `Key names pressed after text, in order: Enter, Tab, Backspace, Escape, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, a single character ("q", ":"), or combinations: "C-c" (Ctrl-C), "C-x", "M-x" (Alt-x), "C-M-x", "C-Up", "S-Tab".`,
		},
		"changedOnly": tools.Boolean("Return only the screen rows that changed since your previous look (default false)."),
	}))
	keysOutput = tools.MustSchemaJSON(tools.Object([]string{"waitReason", "status", "screen"}, tools.Obj{
		"waitReason":     tools.WaitReasonSchema("Why control came back: stdin_read (the program waits for the next key), prompt (a shell command finished), inferred_idle (output went quiet), timeout, session_exit, cancelled."),
		"status":         tools.StatusSchema(),
		"screen":         snapshotSchema(),
		"leftFullScreen": tools.Boolean("The program left the alternate screen; screen holds only the rows new on the normal screen."),
	}))
)
