package tools

import "github.com/ptyseam/ptyseam/core"

// StatusSchema returns the schema of a core.Status as it marshals:
// {"kind":"running"}, or {"kind":"exited"} with exitCode or signal (and
// reason). Every tool that reports a session's status uses it.
func StatusSchema() Obj {
	return Obj{
		"type":                 "object",
		"description":          `The program's status: {"kind":"running"}, or {"kind":"exited"} with exitCode (normal exit) or signal (killed).`,
		"required":             []string{"kind"},
		"additionalProperties": false,
		"properties": Obj{
			"kind":     Obj{"type": "string", "enum": []string{string(core.StatusRunning), string(core.StatusExited)}},
			"exitCode": Integer("Exit code of an exited program."),
			"signal":   Obj{"type": []string{"string", "null"}, "description": `Signal that killed the program ("SIGKILL").`},
			"reason":   String("What ended the session when the code alone does not say."),
		},
	}
}

// WaitReasonSchema returns the schema of a core.WaitReason: a string, one
// of the wait reasons a send can return, described by desc (each tool
// explains the reasons in its own terms).
func WaitReasonSchema(desc string) Obj {
	return Obj{
		"type": "string",
		"enum": []string{
			string(core.WaitPrompt), string(core.WaitStdinRead), string(core.WaitInferredIdle),
			string(core.WaitTimeout), string(core.WaitSessionExit), string(core.WaitCancelled),
		},
		"description": desc,
	}
}
