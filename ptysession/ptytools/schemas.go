package ptytools

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// The arguments of the pty tools, as their handlers decode them. Their
// input schemas are derived from these types (see tools.InferSchema): the
// `jsonschema` tags are the descriptions a model reads, omitempty marks an
// optional argument, and the options below add the bounds.

type openArgs struct {
	Command string            `json:"command,omitempty" jsonschema:"What to run, as you would type it in a shell (\"python3 -q\", \"gdb -q ./prog\", \"npm run dev\"). Omitted, or \"bash\", it is a plain shell."`
	Cwd     string            `json:"cwd,omitempty" jsonschema:"Working directory (default: the server's)."`
	Env     map[string]string `json:"env,omitempty" jsonschema:"Extra environment variables, NAME: value."`
	Cols    int               `json:"cols,omitempty" jsonschema:"Terminal width in columns (default 160)."`
	Rows    int               `json:"rows,omitempty" jsonschema:"Terminal height in rows (default 40)."`
	Record  bool              `json:"record,omitempty" jsonschema:"Record the session to a replayable file, where the server records."`
	deadlineArgs
}

type idArgs struct {
	ID string `json:"id" jsonschema:"sessionId from pty_open."`
}

type sendArgs struct {
	idArgs
	Data   string `json:"data" jsonschema:"Text to type; control characters are sent as is (\"\\u0003\" is Ctrl-C, \"\\u0004\" Ctrl-D)."`
	Submit *bool  `json:"submit,omitempty" jsonschema:"Press Enter after data (default true; a newline ending data is that Enter)."`
	deadlineArgs
}

type tailArgs struct {
	idArgs
	Lines int `json:"lines,omitempty" jsonschema:"At most this many of the newest lines (default 200; 0 means the default)."`
}

type readArgs struct {
	idArgs
	Start  int64 `json:"start,omitempty" jsonschema:"First line number wanted (0: the first line printed)."`
	Lines  int   `json:"lines,omitempty" jsonschema:"Number of lines (default 200)."`
	Newest bool  `json:"newest,omitempty" jsonschema:"Read the newest lines instead of starting at start."`
}

type signalArgs struct {
	idArgs
	Signal ptysession.Signal `json:"signal" jsonschema:"SIGINT is Ctrl-C, SIGTSTP Ctrl-Z (both discard input typed ahead, as a terminal does); SIGTERM or SIGKILL stop the program."`
}

type waitArgs struct {
	ID         string                     `json:"id,omitempty" jsonschema:"Target of the conditions that name none: a sessionId or job id. Alone, without conditions: wait until its program exits or waits for input."`
	Conditions []ptysession.WaitCondition `json:"conditions,omitempty" jsonschema:"The first that holds ends the wait."`
	TimeoutMs  int64                      `json:"timeoutMs,omitempty"`
}

// schemaOf derives a pty tool's schema with the facade's own named types.
func schemaOf[T any](opts ...tools.SchemaOption) json.RawMessage {
	return tools.MustInferSchema[T](append(opts, facadeTypes)...)
}

// lazySchemaOf is schemaOf built on first use (tools.LazySchema), for the
// static schemas: a program that never lists the tools never builds them.
func lazySchemaOf[T any](opts ...tools.SchemaOption) func() json.RawMessage {
	return tools.LazySchema[T](append(opts, facadeTypes)...)
}

// facadeTypes gives the facade's named types their schemas.
var facadeTypes = tools.EnumOf(ptysession.WaitOutput, ptysession.WaitPort, ptysession.WaitExit, ptysession.WaitInput, ptysession.WaitScreen)

// deadlineRules bound timeoutMs and quietMs by max and describe them.
func deadlineRules(max time.Duration, timeoutDesc string) []tools.SchemaOption {
	return []tools.SchemaOption{
		tools.Range("timeoutMs", 1, max.Milliseconds()), tools.Describe("timeoutMs", timeoutDesc),
		tools.Range("quietMs", 1, max.Milliseconds()),
		tools.Describe("quietMs", fmt.Sprintf("Silence in ms after which output counts as settled (default %d).", core.DefaultQuietWindow.Milliseconds())),
	}
}

// openInput is pty_open's input schema; max bounds timeoutMs and quietMs.
func openInput(max time.Duration) json.RawMessage {
	return schemaOf[openArgs](append(deadlineRules(max, "How long to wait for the command to settle, in ms (default 10000)."),
		tools.NonEmpty("command"), tools.Range("cols", 1, core.MaxDimension), tools.Range("rows", 1, core.MaxDimension))...)
}

// sendInput is pty_send's input schema; max bounds timeoutMs and quietMs.
func sendInput(max time.Duration) json.RawMessage {
	return schemaOf[sendArgs](append(deadlineRules(max, fmt.Sprintf("Deadline in ms (default %d).", core.DefaultSendTimeout.Milliseconds())),
		tools.NonEmpty("id"), tools.Default("submit", true))...)
}

// waitInput is pty_wait's input schema; max bounds timeoutMs.
func waitInput(max time.Duration) json.RawMessage {
	return schemaOf[waitArgs](tools.Items("conditions", 0, ptysession.MaxWaitConditions),
		tools.Length("conditions[].pattern", 1, ptysession.MaxWaitPattern),
		tools.AtLeast("conditions[].fromLine", 0), tools.Range("conditions[].port", 1, 65535),
		tools.Range("timeoutMs", 1, max.Milliseconds()), tools.Describe("timeoutMs", "Longest wait in ms (default 30000)."))
}

var (
	openOutput   = lazySchemaOf[ptysession.OpenResult]()
	sendOutput   = lazySchemaOf[ptysession.SendResult]()
	tailInput    = lazySchemaOf[tailArgs](tools.NonEmpty("id"), tools.Range("lines", 0, ptysession.MaxLines))
	tailOutput   = lazySchemaOf[ptysession.TailResult]()
	closeInput   = lazySchemaOf[idArgs](tools.NonEmpty("id"))
	closeOutput  = lazySchemaOf[ptysession.CloseResult]()
	listInput    = lazySchemaOf[struct{}]()
	listOutput   = lazySchemaOf[ptysession.ListResult]()
	readInput    = lazySchemaOf[readArgs](tools.NonEmpty("id"), tools.AtLeast("start", 0), tools.Range("lines", 0, ptysession.MaxLines))
	readOutput   = lazySchemaOf[ptysession.ReadResult]()
	signalInput  = lazySchemaOf[signalArgs](tools.NonEmpty("id"))
	signalOutput = lazySchemaOf[ptysession.SignalResult]()
	waitOutput   = lazySchemaOf[ptysession.WaitResult]()
)
