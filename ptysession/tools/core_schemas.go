package tools

import "github.com/ptyseam/ptyseam/core"

// statusWire is core.Status as its MarshalJSON encodes it:
// {"kind":"running"}, or {"kind":"exited"} with exitCode (a normal exit)
// or signal (killed), and reason.
type statusWire struct {
	Kind     core.StatusKind `json:"kind"`
	ExitCode *int            `json:"exitCode,omitempty" jsonschema:"Exit code of an exited program."`
	Signal   *string         `json:"signal,omitempty" jsonschema:"Signal that killed the program (\"SIGKILL\")."`
	Reason   string          `json:"reason,omitempty" jsonschema:"What ended the session when the code alone does not say."`
}

// coreSchemas are the schemas of the core types every tool reports:
// built into [InferSchema].
func coreSchemas() []SchemaOption {
	return []SchemaOption{
		EnumOf(core.StatusRunning, core.StatusExited),
		MarshalsAs[core.Status, statusWire](),
		EnumOf(core.WaitPrompt, core.WaitStdinRead, core.WaitRemotePrompt, core.WaitInferredIdle, core.WaitTimeout, core.WaitSessionExit, core.WaitCancelled),
		EnumOf(core.AllowedSignals...),
	}
}
