package jobtools

import (
	"encoding/json"

	"github.com/ptyseam/ptyseam/consumers/jobs"
)

// The JSON Schemas of the tools, built from small helpers so that shared
// parts (the job object) are spelled once.

type obj = map[string]any

func object(required []string, props obj) obj {
	o := obj{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func str(desc string) obj     { return obj{"type": "string", "description": desc} }
func boolean(desc string) obj { return obj{"type": "boolean", "description": desc} }
func integer(desc string, minimum, maximum int64) obj {
	o := obj{"type": "integer", "description": desc}
	if minimum >= 0 {
		o["minimum"] = minimum
	}
	if maximum >= 0 {
		o["maximum"] = maximum
	}
	return o
}
func strList(desc string) obj {
	return obj{"type": "array", "items": obj{"type": "string"}, "description": desc}
}

func idProp() obj {
	return obj{"type": "string", "minLength": 1, "description": "The job id that bg_launch returned."}
}

var statusNames = []string{
	string(jobs.StateRunning), string(jobs.StateStopping), string(jobs.StateFinished),
	string(jobs.StateFailed), string(jobs.StateStopped),
}

var reasonNames = []string{
	string(jobs.ReasonUser), string(jobs.ReasonTimeout), string(jobs.ReasonShutdown), string(jobs.ReasonForced),
}

func jobSchema() obj {
	return object(
		[]string{"id", "pid", "title", "group", "command", "args", "backend", "status", "startedAt", "runtimeMs", "notifyOnExit", "warnings", "services", "output"},
		obj{
			"id":           str("The job id, for the other bg_* tools."),
			"pid":          integer("Process id of the job's program.", 0, -1),
			"title":        str("Display name."),
			"group":        str("Group tag."),
			"command":      str("The program."),
			"args":         strList("Its arguments."),
			"cwd":          str("Working directory."),
			"backend":      obj{"type": "string", "enum": []string{string(jobs.BackendPTY), string(jobs.BackendPipe)}, "description": "pty (a terminal) or pipe."},
			"status":       obj{"type": "string", "enum": statusNames, "description": "running, stopping, finished (exit 0), failed (non-zero exit or killed by a signal), stopped (by bg_stop, its timeout or shutdown)."},
			"exitCode":     integer("Exit code, once the program exited normally.", -1, -1),
			"signal":       str(`Signal that ended the program ("SIGTERM").`),
			"reason":       obj{"type": "string", "enum": reasonNames, "description": "Why a stopped job stopped; forced means it ignored SIGTERM and was killed."},
			"cause":        obj{"type": "string", "enum": reasonNames, "description": "What asked for the stop (user, timeout, shutdown)."},
			"startedAt":    str("Start time (RFC 3339)."),
			"endedAt":      str("End time (RFC 3339), once ended."),
			"runtimeMs":    integer("Milliseconds the job ran (so far).", 0, -1),
			"timeoutMs":    integer("The job's timeout.", 0, -1),
			"notifyOnExit": boolean("An exit notice will be sent."),
			"ports":        obj{"type": "array", "items": obj{"type": "integer"}, "description": "Ports checked at launch."},
			"warnings":     strList("Launch warnings, such as a requested port already in use."),
			"services":     strList("Service addresses found in the output (http://localhost:5173)."),
			"output": object([]string{"lines", "first", "retained", "bytes", "cutBytes", "released"}, obj{
				"lines":    integer("Lines printed so far (the next line number).", 0, -1),
				"first":    integer("Oldest line still kept; older ones were dropped.", 0, -1),
				"retained": integer("Lines kept.", 0, -1),
				"bytes":    integer("Raw bytes printed.", 0, -1),
				"cutBytes": integer("Bytes cut from the front of over-long lines.", 0, -1),
				"released": boolean("The output is no longer readable."),
			}),
		})
}

var (
	launchInput = object([]string{"command"}, obj{
		"command": obj{"type": "string", "minLength": 1, "description": `Program to run (looked up in PATH), e.g. "npm". For a shell command line use "sh" with args ["-c", "..."].`},
		"args":    strList("Arguments."),
		"cwd":     str("Working directory (default: the server's)."),
		"env": obj{"type": "object", "additionalProperties": obj{"type": "string"},
			"description": "Extra environment variables, NAME: value."},
		"title":        str("Display name (default: the command)."),
		"group":        str("Group tag, for bg_list and bg_stop_group (default group when omitted)."),
		"timeoutMs":    integer("Stop the job after this many milliseconds (0 or omitted: never).", 0, -1),
		"ports":        obj{"type": "array", "maxItems": jobs.MaxPorts, "items": obj{"type": "integer", "minimum": 1, "maximum": 65535}, "description": "TCP ports the job will listen on; each is checked first and a taken one gives a warning."},
		"notifyOnExit": boolean("Send a notice when the job ends, so no polling is needed."),
		"backend":      obj{"type": "string", "enum": []string{string(jobs.BackendAuto), string(jobs.BackendPTY), string(jobs.BackendPipe)}, "description": "pty (a terminal: interactive programs, Ctrl-C works), pipe (plain pipes), auto (default: pty when available)."},
	})
	launchOutput = jobSchema()

	sendInput = object([]string{"id", "data"}, obj{
		"id":   idProp(),
		"data": str(`Input. Backslash escapes are decoded: \n (Enter), \r, \t, \e (ESC), \a, \b, \0, \\, \xHH (\x03 is Ctrl-C), \cX (\cC is Ctrl-C, \c? is DEL), \uXXXX. Unknown escapes are sent as written.`),
		"raw":  boolean("Send data exactly as given, without decoding escapes."),
	})
	sendOutput = object([]string{"id", "bytes", "echo", "status"}, obj{
		"id":     str("The job id."),
		"bytes":  integer("Bytes written.", 0, -1),
		"echo":   str("What was written, in escape notation."),
		"status": obj{"type": "string", "enum": statusNames},
	})

	readInput = object([]string{"id"}, obj{
		"id":         idProp(),
		"from":       integer("Global line number to resume from: the next of a previous bg_read (0 is the first line). Omit to read the newest lines.", 0, -1),
		"limit":      integer("Most lines to return (default 100).", 1, jobs.MaxReadLimit),
		"pattern":    obj{"type": "string", "maxLength": jobs.MaxPatternLen, "description": "Only lines matching this regular expression (RE2 syntax, like grep -E)."},
		"ignoreCase": boolean("Match pattern case-insensitively."),
	})
	readOutput = object([]string{"id", "status", "lines", "next", "total", "first", "dropped", "truncated", "more"}, obj{
		"id":     str("The job id."),
		"status": obj{"type": "string", "enum": statusNames},
		"lines": obj{"type": "array", "items": object([]string{"n", "text"}, obj{
			"n":       integer("Global line number.", 0, -1),
			"text":    str("The line, escape sequences removed."),
			"partial": boolean("The program is still writing this line; it is returned again by the next read."),
		})},
		"next":      integer("Pass as from to continue.", 0, -1),
		"total":     integer("Lines printed so far.", 0, -1),
		"first":     integer("Oldest line still kept.", 0, -1),
		"dropped":   integer("Lines from `from` on that were no longer kept.", 0, -1),
		"truncated": boolean("History was dropped, or the result hit its size bound."),
		"more":      boolean("More lines exist after next."),
	})

	listInput = object(nil, obj{
		"group":  str("Only jobs of this group."),
		"status": obj{"type": "string", "enum": statusNames, "description": "Only jobs in this status."},
	})
	listOutput = object([]string{"jobs"}, obj{"jobs": obj{"type": "array", "items": jobSchema()}})

	stopInput = object([]string{"id"}, obj{
		"id":    idProp(),
		"drop":  boolean("Also delete the job's record and output once it stopped."),
		"force": boolean("Kill at once instead of SIGTERM first."),
	})
	stopOutput = object([]string{"job", "dropped"}, obj{
		"job":     jobSchema(),
		"dropped": boolean("The record was deleted."),
	})

	stopGroupInput = object([]string{"group"}, obj{
		"group": obj{"type": "string", "minLength": 1, "description": "The group whose running jobs to stop."},
		"drop":  boolean("Also delete their records once stopped."),
		"force": boolean("Kill at once instead of SIGTERM first."),
	})
	stopGroupOutput = object([]string{"group", "jobs", "dropped"}, obj{
		"group":   str("The group."),
		"jobs":    obj{"type": "array", "items": jobSchema(), "description": "The jobs stopped."},
		"dropped": boolean("Their records were deleted."),
	})

	dropInput = object(nil, obj{
		"id":    str("Drop this ended job."),
		"group": str("Drop every ended job of this group."),
	})
	dropOutput = object([]string{"dropped", "skipped"}, obj{
		"dropped": strList("Ids dropped."),
		"skipped": strList("Ids of selected jobs still running, kept."),
	})
)

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // static schemas: a failure is a programming error every test catches
	}
	return b
}
