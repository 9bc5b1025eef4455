package jobtools

import (
	"encoding/json"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// The arguments of the job tools, as their handlers decode them. The
// tools' schemas are derived from these types and from the results' in
// output.go (see tools.InferSchema); the `jsonschema` tags are the
// descriptions a model reads.

type launchArgs struct {
	Command      string             `json:"command" jsonschema:"Program to run (looked up in PATH), e.g. \"npm\". For a shell command line use \"sh\" with args [\"-c\", \"...\"]."`
	Args         []string           `json:"args,omitempty" jsonschema:"Arguments."`
	Cwd          string             `json:"cwd,omitempty" jsonschema:"Working directory (default: the server's)."`
	Env          map[string]string  `json:"env,omitempty" jsonschema:"Extra environment variables, NAME: value."`
	Title        string             `json:"title,omitempty" jsonschema:"Display name (default: the command)."`
	Group        string             `json:"group,omitempty" jsonschema:"Group tag, to stop jobs together."`
	TimeoutMs    int64              `json:"timeoutMs,omitempty" jsonschema:"Stop the job after this many milliseconds (0 or omitted: never)."`
	Ports        []int              `json:"ports,omitempty" jsonschema:"TCP ports it will listen on: a taken one gives a warning."`
	NotifyOnExit bool               `json:"notifyOnExit,omitempty" jsonschema:"Send an MCP log message (level notice; the client must set a logging level) when the job ends: no polling."`
	Backend      jobs.BackendChoice `json:"backend,omitempty" jsonschema:"pty (a terminal: interactive programs, Ctrl-C works), pipe (plain pipes), auto (default: pty when available)."`
	WaitFor      *readyArgs         `json:"waitFor,omitempty"`
}

// readyArgs is bg_launch's waitFor: what makes the job ready.
type readyArgs struct {
	URL       bool   `json:"url,omitempty" jsonschema:"Ready once the job printed a service address (http://localhost:5173)."`
	Port      int    `json:"port,omitempty" jsonschema:"Ready once this TCP port on 127.0.0.1 accepts connections."`
	Line      string `json:"line,omitempty" jsonschema:"Ready once an output line matches this regular expression (RE2)."`
	TimeoutMs int64  `json:"timeoutMs,omitempty" jsonschema:"Give up waiting after this long (default 15000); the job keeps running."`
}

type idArgs struct {
	ID string `json:"id" jsonschema:"Job id from bg_launch."`
}

type sendArgs struct {
	idArgs
	Data string `json:"data" jsonschema:"Input. Backslash escapes are decoded: \\n (Enter), \\r, \\t, \\e (ESC), \\a, \\b, \\0, \\\\, \\xHH (\\x03 is Ctrl-C), \\cX (\\cC is Ctrl-C, \\c? is DEL), \\uXXXX. Unknown escapes are sent as written."`
	Raw  bool   `json:"raw,omitempty" jsonschema:"Send data exactly as given, without decoding escapes."`
}

type readArgs struct {
	idArgs
	From       *int64 `json:"from,omitempty" jsonschema:"Global line number to resume from: a previous result's next (0 is the first line). Omit for the newest lines."`
	Limit      int    `json:"limit,omitempty" jsonschema:"Most lines to return (default 100)."`
	Pattern    string `json:"pattern,omitempty" jsonschema:"Only lines matching this regular expression (RE2 syntax, like grep -E)."`
	IgnoreCase bool   `json:"ignoreCase,omitempty" jsonschema:"Match pattern case-insensitively."`
}

type listArgs struct {
	Group  string     `json:"group,omitempty" jsonschema:"Only jobs of this group."`
	Status jobs.State `json:"status,omitempty" jsonschema:"Only jobs in this status."`
}

type stopArgs struct {
	idArgs
	Drop  bool `json:"drop,omitempty" jsonschema:"Also delete the job's record and output once it stopped."`
	Force bool `json:"force,omitempty" jsonschema:"Kill at once instead of SIGTERM first."`
}

type stopGroupArgs struct {
	Group string `json:"group" jsonschema:"The group whose running jobs to stop."`
	Drop  bool   `json:"drop,omitempty" jsonschema:"Also delete their records once stopped."`
	Force bool   `json:"force,omitempty" jsonschema:"Kill at once instead of SIGTERM first."`
}

type dropArgs struct {
	ID    string `json:"id,omitempty" jsonschema:"Drop this ended job."`
	Group string `json:"group,omitempty" jsonschema:"Drop every ended job of this group."`
}

// schemaOf derives a job tool's schema with the jobs layer's named
// types, on first use (tools.LazySchema: a program that never lists the
// tools never builds them).
func schemaOf[T any](opts ...tools.SchemaOption) func() json.RawMessage {
	return tools.LazySchema[T](append(opts,
		tools.EnumOf(jobs.StateRunning, jobs.StateStopping, jobs.StateFinished, jobs.StateFailed, jobs.StateStopped),
		tools.EnumOf(jobs.ReasonUser, jobs.ReasonTimeout, jobs.ReasonShutdown, jobs.ReasonForced),
		tools.EnumOf(jobs.BackendAuto, jobs.BackendPTY, jobs.BackendPipe),
	)...)
}

var (
	launchInput = schemaOf[launchArgs](tools.NonEmpty("command"), tools.AtLeast("timeoutMs", 0),
		tools.Items("ports", 0, jobs.MaxPorts), tools.Range("ports[]", 1, 65535),
		tools.Range("waitFor.port", 1, 65535), tools.Length("waitFor.line", 1, ptysession.MaxWaitPattern),
		tools.Range("waitFor.timeoutMs", 0, MaxReadyTimeout.Milliseconds()))
	launchOutput = schemaOf[LaunchOut](tools.Enum("ready.by", "url", "port", "line"), tools.Enum("ready.reason", "timeout", "exited", "cancelled"))

	sendInput  = schemaOf[sendArgs](tools.NonEmpty("id"))
	sendOutput = schemaOf[SendOut]()

	readInput = schemaOf[readArgs](tools.NonEmpty("id"), tools.AtLeast("from", 0), tools.Range("limit", 1, jobs.MaxReadLimit),
		tools.Length("pattern", 0, jobs.MaxPatternLen))
	readOutput = schemaOf[ReadOut]()

	listInput  = schemaOf[listArgs]()
	listOutput = schemaOf[ListOut]()

	stopInput  = schemaOf[stopArgs](tools.NonEmpty("id"))
	stopOutput = schemaOf[StopOut]()

	stopGroupInput  = schemaOf[stopGroupArgs](tools.NonEmpty("group"))
	stopGroupOutput = schemaOf[StopGroupOut]()

	dropInput  = schemaOf[dropArgs]()
	dropOutput = schemaOf[DropOut]()
)
