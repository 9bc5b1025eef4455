package ptysession

import (
	"encoding/json"

	"github.com/ptyseam/ptyseam/core"
)

// The JSON Schemas of the pty tools, built once from small helpers so that
// shared parts (the status object) are spelled once.

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
func integer(desc string, minimum, maximum int64) jsonObj {
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
		"description": "Why control came back: prompt (the shell command finished), stdin_read (the program waits for input), inferred_idle (output went quiet; it may still be working), timeout, session_exit, cancelled.",
	}
}

func signalEnum() []string {
	l := make([]string, len(core.AllowedSignals))
	for i, s := range core.AllowedSignals {
		l[i] = string(s)
	}
	return l
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the schemas are static; a failure is a programming error caught by every test
	}
	return b
}

var (
	openInput = object([]string{"command"}, jsonObj{
		"command": jsonObj{"type": "string", "minLength": 1, "description": `What to run, as you would type it in a shell ("python3 -q", "gdb -q ./prog", "npm run dev"). "bash" gives a plain shell.`},
		"cwd":     str("Working directory (default: the server's)."),
		"env": jsonObj{
			"type":                 "object",
			"additionalProperties": jsonObj{"type": "string"},
			"description":          "Extra environment variables, NAME: value; names match [A-Za-z_][A-Za-z0-9_]*.",
		},
	})
	openOutput = object([]string{"sessionId", "status", "initialOutput", "truncated"}, jsonObj{
		"sessionId":     str("Session id for pty_send, pty_tail, pty_read, pty_signal and pty_close."),
		"pid":           integer("Process id of the session's top-level process.", 1, -1),
		"status":        statusSchema(),
		"initialOutput": str("What the session printed until it settled."),
		"truncated":     boolean("Older initial output was cut."),
		"waitReason":    waitReasonSchema(),
	})

	sendInput = object([]string{"id", "data"}, jsonObj{
		"id":     idProp(),
		"data":   str(`Text to type. Control characters are sent as is ("\u0003" is Ctrl-C, "\u0004" Ctrl-D).`),
		"submit": jsonObj{"type": "boolean", "default": true, "description": "Press Enter after data (default true). false sends data byte-exact."},
	})
	sendOutput = object([]string{"delta", "status", "waitReason", "truncated"}, jsonObj{
		"delta":      str("Output produced since the write, until the session settled."),
		"status":     statusSchema(),
		"waitReason": waitReasonSchema(),
		"truncated":  boolean("Older parts of delta were cut."),
		"skipped":    integer("Whole lines cut from delta.", 0, -1),
		"exitCode":   integer("Exit code of the shell command, when the shell reported one.", -1, -1),
	})

	tailInput = object([]string{"id"}, jsonObj{
		"id":    idProp(),
		"lines": integer("At most this many of the newest lines (default 200; 0 means the default).", 0, MaxLines),
	})
	tailOutput = object([]string{"text", "lines", "truncated", "skipped"}, jsonObj{
		"text":      str("New output since the previous pty_tail."),
		"lines":     integer("Lines in text.", 0, -1),
		"truncated": boolean("Older new lines were skipped to fit the line budget."),
		"skipped":   integer("Exact number of lines skipped.", 0, -1),
	})

	closeInput  = object([]string{"id"}, jsonObj{"id": idProp()})
	closeOutput = object([]string{"closed"}, jsonObj{
		"closed": boolean("true: this call closed the session; false: it was already closed."),
	})

	listInput  = object(nil, jsonObj{})
	listOutput = object([]string{"sessions"}, jsonObj{
		"sessions": jsonObj{
			"type": "array",
			"items": object([]string{"sessionId", "type", "status", "created", "totalLines"}, jsonObj{
				"sessionId":  str("Session id."),
				"name":       str("Display name, if any."),
				"type":       str("Backend type."),
				"pid":        integer("Top-level process id.", 1, -1),
				"status":     statusSchema(),
				"created":    jsonObj{"type": "string", "format": "date-time", "description": "When the session was opened."},
				"totalLines": integer("Lines printed so far.", 0, -1),
			}),
		},
	})

	readInput = object([]string{"id"}, jsonObj{
		"id":     idProp(),
		"start":  integer("First line number wanted; line 0 is the first line the session printed.", 0, -1),
		"lines":  integer("Number of lines (default 200).", 0, MaxLines),
		"newest": boolean("Read the newest lines instead of starting at start."),
	})
	readOutput = object([]string{"text", "lines", "start", "end", "total", "first", "partial", "truncated", "dropped"}, jsonObj{
		"text":      str("The page's lines."),
		"lines":     integer("Lines in text.", 0, -1),
		"start":     integer("Number of the first line in text.", 0, -1),
		"end":       integer("Number after the last line in text: page on from here.", 0, -1),
		"total":     integer("Lines printed so far.", 0, -1),
		"first":     integer("Oldest line still retained.", 0, -1),
		"partial":   boolean("The last line is still being written."),
		"truncated": boolean("Requested lines are gone, or the page was cut short (page on from end)."),
		"dropped":   integer("Requested lines no longer retained.", 0, -1),
	})

	signalInput = object([]string{"id", "signal"}, jsonObj{
		"id":     idProp(),
		"signal": jsonObj{"type": "string", "enum": signalEnum(), "description": "SIGINT is Ctrl-C, SIGTSTP Ctrl-Z; SIGTERM or SIGKILL stop the program."},
	})
	signalOutput = object([]string{"signal", "delivered", "leader"}, jsonObj{
		"signal":     str("The signal sent."),
		"delivered":  boolean("The signal was delivered."),
		"targetPgid": integer("Process group that was signalled.", 1, -1),
		"leader":     boolean("The target was the session's own shell."),
		"method":     str("How the signal travelled."),
	})
)
