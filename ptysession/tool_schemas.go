package ptysession

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// The JSON Schemas of the pty tools, built with the ptysession/tools helpers
// and marshalled once, when the package is initialized.

func idProp() tools.Obj {
	return tools.Obj{"type": "string", "minLength": 1, "description": "The sessionId that pty_open returned."}
}

func waitReasonSchema() tools.Obj {
	return tools.WaitReasonSchema("Why control came back: prompt (the shell command finished), stdin_read (the program waits for input), inferred_idle (output went quiet; it may still be working), timeout, session_exit, cancelled.")
}

func signalEnum() []string {
	l := make([]string, len(core.AllowedSignals))
	for i, s := range core.AllowedSignals {
		l[i] = string(s)
	}
	return l
}

// openInput is pty_open's input schema; max bounds timeoutMs and quietMs.
func openInput(max time.Duration) json.RawMessage {
	return tools.MustSchemaJSON(tools.Object([]string{"command"}, tools.Obj{
		"command": tools.Obj{"type": "string", "minLength": 1, "description": `What to run, as you would type it in a shell ("python3 -q", "gdb -q ./prog", "npm run dev"). "bash" gives a plain shell.`},
		"cwd":     tools.String("Working directory (default: the server's)."),
		"env": tools.Obj{
			"type":                 "object",
			"additionalProperties": tools.Obj{"type": "string"},
			"description":          "Extra environment variables, NAME: value; names match [A-Za-z_][A-Za-z0-9_]*.",
		},
		"cols":      tools.Integer("Terminal width in columns (default 160).").Min(1).Max(maxTermDimension),
		"rows":      tools.Integer("Terminal height in rows (default 40).").Min(1).Max(maxTermDimension),
		"timeoutMs": timeoutProp(max, "How long to wait for the command to settle, in ms (default 10000)."),
		"quietMs":   quietProp(max),
	}))
}

// sendInput is pty_send's input schema; max bounds timeoutMs and quietMs.
func sendInput(max time.Duration) json.RawMessage {
	return tools.MustSchemaJSON(tools.Object([]string{"id", "data"}, tools.Obj{
		"id":        idProp(),
		"data":      tools.String(`Text to type. Control characters are sent as is ("\u0003" is Ctrl-C, "\u0004" Ctrl-D).`),
		"submit":    tools.Obj{"type": "boolean", "default": true, "description": "Press Enter after data (default true). false sends data byte-exact."},
		"timeoutMs": timeoutProp(max, fmt.Sprintf("Deadline in ms (default %d).", core.DefaultSendTimeout.Milliseconds())),
		"quietMs":   quietProp(max),
	}))
}

func timeoutProp(max time.Duration, desc string) tools.Obj {
	return tools.Integer(desc).Min(1).Max(max.Milliseconds())
}

func quietProp(max time.Duration) tools.Obj {
	return tools.Integer(fmt.Sprintf("Silence in ms after which output counts as settled (default %d).", core.DefaultQuietWindow.Milliseconds())).Min(1).Max(max.Milliseconds())
}

var (
	openOutput = tools.MustSchemaJSON(tools.Object([]string{"sessionId", "status", "initialOutput", "truncated"}, tools.Obj{
		"sessionId":     tools.String("Session id for pty_send, pty_tail, pty_read, pty_signal and pty_close."),
		"pid":           tools.Integer("Process id of the session's top-level process.").Min(1),
		"status":        tools.StatusSchema(),
		"initialOutput": tools.String("What the session printed until it settled."),
		"truncated":     tools.Boolean("Older initial output was cut."),
		"waitReason":    waitReasonSchema(),
	}))

	sendOutput = tools.MustSchemaJSON(tools.Object([]string{"delta", "status", "waitReason", "truncated"}, tools.Obj{
		"delta":      tools.String("Output produced since the write, until the session settled."),
		"status":     tools.StatusSchema(),
		"waitReason": waitReasonSchema(),
		"truncated":  tools.Boolean("Older parts of delta were cut."),
		"skipped":    tools.Integer("Whole lines cut from delta.").Min(0),
		"exitCode":   tools.Integer("Exit code of the shell command, when the shell reported one."),
	}))

	tailInput = tools.MustSchemaJSON(tools.Object([]string{"id"}, tools.Obj{
		"id":    idProp(),
		"lines": tools.Integer("At most this many of the newest lines (default 200; 0 means the default).").Min(0).Max(MaxLines),
	}))
	tailOutput = tools.MustSchemaJSON(tools.Object([]string{"text", "lines", "truncated", "skipped"}, tools.Obj{
		"text":      tools.String("New output since the previous pty_tail."),
		"lines":     tools.Integer("Lines in text.").Min(0),
		"truncated": tools.Boolean("Older new lines were skipped to fit the line budget."),
		"skipped":   tools.Integer("Exact number of lines skipped.").Min(0),
	}))

	closeInput  = tools.MustSchemaJSON(tools.Object([]string{"id"}, tools.Obj{"id": idProp()}))
	closeOutput = tools.MustSchemaJSON(tools.Object([]string{"closed"}, tools.Obj{
		"closed": tools.Boolean("true: this call closed the session; false: it was already closed."),
	}))

	listInput  = tools.MustSchemaJSON(tools.Object(nil, tools.Obj{}))
	listOutput = tools.MustSchemaJSON(tools.Object([]string{"sessions"}, tools.Obj{
		"sessions": tools.Obj{
			"type": "array",
			"items": tools.Object([]string{"sessionId", "type", "status", "created", "totalLines"}, tools.Obj{
				"sessionId":  tools.String("Session id."),
				"name":       tools.String("Display name, if any."),
				"type":       tools.String("Backend type."),
				"pid":        tools.Integer("Top-level process id.").Min(1),
				"status":     tools.StatusSchema(),
				"created":    tools.Obj{"type": "string", "format": "date-time", "description": "When the session was opened."},
				"totalLines": tools.Integer("Lines printed so far.").Min(0),
			}),
		},
	}))

	readInput = tools.MustSchemaJSON(tools.Object([]string{"id"}, tools.Obj{
		"id":     idProp(),
		"start":  tools.Integer("First line number wanted; line 0 is the first line the session printed.").Min(0),
		"lines":  tools.Integer("Number of lines (default 200).").Min(0).Max(MaxLines),
		"newest": tools.Boolean("Read the newest lines instead of starting at start."),
	}))
	readOutput = tools.MustSchemaJSON(tools.Object([]string{"text", "lines", "start", "end", "total", "first", "partial", "truncated", "dropped"}, tools.Obj{
		"text":      tools.String("The page's lines."),
		"lines":     tools.Integer("Lines in text.").Min(0),
		"start":     tools.Integer("Number of the first line in text.").Min(0),
		"end":       tools.Integer("Number after the last line in text: page on from here.").Min(0),
		"total":     tools.Integer("Lines printed so far.").Min(0),
		"first":     tools.Integer("Oldest line still retained.").Min(0),
		"partial":   tools.Boolean("The last line is still being written."),
		"truncated": tools.Boolean("Requested lines are gone, or the page was cut short (page on from end)."),
		"dropped":   tools.Integer("Requested lines no longer retained.").Min(0),
	}))

	signalInput = tools.MustSchemaJSON(tools.Object([]string{"id", "signal"}, tools.Obj{
		"id":     idProp(),
		"signal": tools.Obj{"type": "string", "enum": signalEnum(), "description": "SIGINT is Ctrl-C, SIGTSTP Ctrl-Z; SIGTERM or SIGKILL stop the program."},
	}))
	signalOutput = tools.MustSchemaJSON(tools.Object([]string{"signal", "delivered", "leader"}, tools.Obj{
		"signal":     tools.String("The signal sent."),
		"delivered":  tools.Boolean("The signal was delivered."),
		"targetPgid": tools.Integer("Process group that was signalled.").Min(1),
		"leader":     tools.Boolean("The target was the session's own shell."),
		"method":     tools.String("How the signal travelled."),
		"output":     tools.String("What the session printed after the signal until it went quiet; moves your tail position past it."),
		"truncated":  tools.Boolean("Older parts of output were cut."),
	}))
)
