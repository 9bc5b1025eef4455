package jobtools

import (
	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// The JSON Schemas of the tools, built with the ptysession/tools helpers
// (the job object is spelled once, in jobSchema) and marshalled once, when
// the package is initialized.

func idProp() tools.Obj {
	return tools.Obj{"type": "string", "minLength": 1, "description": "The job id that bg_launch returned."}
}

var statusNames = []string{
	string(jobs.StateRunning), string(jobs.StateStopping), string(jobs.StateFinished),
	string(jobs.StateFailed), string(jobs.StateStopped),
}

var reasonNames = []string{
	string(jobs.ReasonUser), string(jobs.ReasonTimeout), string(jobs.ReasonShutdown), string(jobs.ReasonForced),
}

func jobSchema() tools.Obj {
	return tools.Object(
		[]string{"id", "pid", "title", "group", "command", "args", "backend", "status", "startedAt", "runtimeMs", "notifyOnExit", "warnings", "services", "output"},
		tools.Obj{
			"id":           tools.String("The job id, for the other bg_* tools."),
			"pid":          tools.Integer("Process id of the job's program.").Min(0),
			"title":        tools.String("Display name."),
			"group":        tools.String("Group tag."),
			"command":      tools.String("The program."),
			"args":         tools.StringList("Its arguments."),
			"cwd":          tools.String("Working directory."),
			"backend":      tools.Obj{"type": "string", "enum": []string{string(jobs.BackendPTY), string(jobs.BackendPipe)}, "description": "pty (a terminal) or pipe."},
			"status":       tools.Obj{"type": "string", "enum": statusNames, "description": "running, stopping, finished (exit 0), failed (non-zero exit or killed by a signal), stopped (by bg_stop, its timeout or shutdown)."},
			"exitCode":     tools.Obj{"type": []string{"integer", "null"}, "description": "Exit code once the program exited normally; null while it runs or when a signal ended it."},
			"signal":       tools.Obj{"type": []string{"string", "null"}, "description": `Signal that ended the program ("SIGTERM"); null otherwise.`},
			"reason":       tools.Obj{"type": "string", "enum": reasonNames, "description": "Why a stopped job stopped; forced means it ignored SIGTERM and was killed."},
			"cause":        tools.Obj{"type": "string", "enum": reasonNames, "description": "What asked for the stop (user, timeout, shutdown)."},
			"startedAt":    tools.String("Start time (RFC 3339)."),
			"endedAt":      tools.String("End time (RFC 3339), once ended."),
			"runtimeMs":    tools.Integer("Milliseconds the job ran (so far).").Min(0),
			"timeoutMs":    tools.Integer("The job's timeout.").Min(0),
			"notifyOnExit": tools.Boolean("An exit notice will be sent."),
			"ports":        tools.Obj{"type": "array", "items": tools.Obj{"type": "integer"}, "description": "Ports checked at launch."},
			"warnings":     tools.StringList("Launch warnings, such as a requested port already in use."),
			"services":     tools.StringList("Service addresses found in the output (http://localhost:5173)."),
			"output": tools.Object([]string{"lines", "first", "retained", "bytes", "cutBytes", "released"}, tools.Obj{
				"lines":    tools.Integer("Lines printed so far (the next line number).").Min(0),
				"first":    tools.Integer("Oldest line still kept; older ones were dropped.").Min(0),
				"retained": tools.Integer("Lines kept.").Min(0),
				"bytes":    tools.Integer("Raw bytes printed.").Min(0),
				"cutBytes": tools.Integer("Bytes cut from the front of over-long lines.").Min(0),
				"released": tools.Boolean("The output is no longer readable."),
			}),
		})
}

var (
	launchInput = tools.MustSchemaJSON(tools.Object([]string{"command"}, tools.Obj{
		"command": tools.Obj{"type": "string", "minLength": 1, "description": `Program to run (looked up in PATH), e.g. "npm". For a shell command line use "sh" with args ["-c", "..."].`},
		"args":    tools.StringList("Arguments."),
		"cwd":     tools.String("Working directory (default: the server's)."),
		"env": tools.Obj{"type": "object", "additionalProperties": tools.Obj{"type": "string"},
			"description": "Extra environment variables, NAME: value."},
		"title":        tools.String("Display name (default: the command)."),
		"group":        tools.String("Group tag, for bg_list and bg_stop_group (default group when omitted)."),
		"timeoutMs":    tools.Integer("Stop the job after this many milliseconds (0 or omitted: never).").Min(0),
		"ports":        tools.Obj{"type": "array", "maxItems": jobs.MaxPorts, "items": tools.Obj{"type": "integer", "minimum": 1, "maximum": 65535}, "description": "TCP ports the job will listen on; each is checked first and a taken one gives a warning."},
		"notifyOnExit": tools.Boolean("Send a notice when the job ends, so no polling is needed (over MCP: a notifications/message log entry, level notice, logger ptyseam.jobs, once the client has set a logging level)."),
		"backend":      tools.Obj{"type": "string", "enum": []string{string(jobs.BackendAuto), string(jobs.BackendPTY), string(jobs.BackendPipe)}, "description": "pty (a terminal: interactive programs, Ctrl-C works), pipe (plain pipes), auto (default: pty when available)."},
		"waitFor": tools.Object(nil, tools.Obj{
			"url":       tools.Boolean("Ready once the job printed a service address (http://localhost:5173)."),
			"port":      tools.Integer("Ready once this TCP port on 127.0.0.1 accepts connections.").Min(1).Max(65535),
			"line":      tools.Obj{"type": "string", "minLength": 1, "maxLength": jobs.MaxPatternLen, "description": "Ready once an output line matches this regular expression (RE2)."},
			"timeoutMs": tools.Integer("Give up waiting after this long (default 15000, at most 60000); the job keeps running.").Min(0).Max(MaxReadyTimeout.Milliseconds()),
		}),
	}))
	launchOutput = tools.MustSchemaJSON(launchSchema())

	sendInput = tools.MustSchemaJSON(tools.Object([]string{"id", "data"}, tools.Obj{
		"id":   idProp(),
		"data": tools.String(`Input. Backslash escapes are decoded: \n (Enter), \r, \t, \e (ESC), \a, \b, \0, \\, \xHH (\x03 is Ctrl-C), \cX (\cC is Ctrl-C, \c? is DEL), \uXXXX. Unknown escapes are sent as written.`),
		"raw":  tools.Boolean("Send data exactly as given, without decoding escapes."),
	}))
	sendOutput = tools.MustSchemaJSON(tools.Object([]string{"id", "bytes", "echo", "status"}, tools.Obj{
		"id":     tools.String("The job id."),
		"bytes":  tools.Integer("Bytes written.").Min(0),
		"echo":   tools.String("What was written, in escape notation."),
		"status": tools.Obj{"type": "string", "enum": statusNames},
	}))

	readInput = tools.MustSchemaJSON(tools.Object([]string{"id"}, tools.Obj{
		"id":         idProp(),
		"from":       tools.Integer("Global line number to resume from: the next of a previous bg_read (0 is the first line). Omit to read the newest lines.").Min(0),
		"limit":      tools.Integer("Most lines to return (default 100).").Min(1).Max(jobs.MaxReadLimit),
		"pattern":    tools.Obj{"type": "string", "maxLength": jobs.MaxPatternLen, "description": "Only lines matching this regular expression (RE2 syntax, like grep -E)."},
		"ignoreCase": tools.Boolean("Match pattern case-insensitively."),
	}))
	readOutput = tools.MustSchemaJSON(tools.Object([]string{"id", "status", "lines", "next", "total", "first", "dropped", "truncated", "more"}, tools.Obj{
		"id":     tools.String("The job id."),
		"status": tools.Obj{"type": "string", "enum": statusNames},
		"lines": tools.Obj{"type": "array", "items": tools.Object([]string{"n", "text"}, tools.Obj{
			"n":       tools.Integer("Global line number.").Min(0),
			"text":    tools.String("The line, escape sequences removed."),
			"partial": tools.Boolean("The program is still writing this line; it is returned again by the next read."),
		})},
		"next":      tools.Integer("Pass as from to continue.").Min(0),
		"total":     tools.Integer("Lines printed so far.").Min(0),
		"first":     tools.Integer("Oldest line still kept.").Min(0),
		"dropped":   tools.Integer("Lines from `from` on that were no longer kept.").Min(0),
		"truncated": tools.Boolean("History was dropped, or the result hit its size bound."),
		"more":      tools.Boolean("More lines exist after next."),
	}))

	listInput = tools.MustSchemaJSON(tools.Object(nil, tools.Obj{
		"group":  tools.String("Only jobs of this group."),
		"status": tools.Obj{"type": "string", "enum": statusNames, "description": "Only jobs in this status."},
	}))
	listOutput = tools.MustSchemaJSON(tools.Object([]string{"jobs"}, tools.Obj{"jobs": tools.Obj{"type": "array", "items": jobSchema()}}))

	stopInput = tools.MustSchemaJSON(tools.Object([]string{"id"}, tools.Obj{
		"id":    idProp(),
		"drop":  tools.Boolean("Also delete the job's record and output once it stopped."),
		"force": tools.Boolean("Kill at once instead of SIGTERM first."),
	}))
	stopOutput = tools.MustSchemaJSON(tools.Object([]string{"job", "dropped"}, tools.Obj{
		"job":     jobSchema(),
		"dropped": tools.Boolean("The record was deleted."),
	}))

	stopGroupInput = tools.MustSchemaJSON(tools.Object([]string{"group"}, tools.Obj{
		"group": tools.Obj{"type": "string", "minLength": 1, "description": "The group whose running jobs to stop."},
		"drop":  tools.Boolean("Also delete their records once stopped."),
		"force": tools.Boolean("Kill at once instead of SIGTERM first."),
	}))
	stopGroupOutput = tools.MustSchemaJSON(tools.Object([]string{"group", "jobs", "dropped"}, tools.Obj{
		"group":   tools.String("The group."),
		"jobs":    tools.Obj{"type": "array", "items": jobSchema(), "description": "The jobs stopped."},
		"dropped": tools.Boolean("Their records were deleted."),
	}))

	dropInput = tools.MustSchemaJSON(tools.Object(nil, tools.Obj{
		"id":    tools.String("Drop this ended job."),
		"group": tools.String("Drop every ended job of this group."),
	}))
	dropOutput = tools.MustSchemaJSON(tools.Object([]string{"dropped", "skipped"}, tools.Obj{
		"dropped": tools.StringList("Ids dropped."),
		"skipped": tools.StringList("Ids of selected jobs still running, kept."),
	}))
)
