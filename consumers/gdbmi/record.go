package gdbmi

import (
	"strconv"
	"strings"
)

// RecordType says which kind of MI output line a [Record] is.
type RecordType uint8

// Record types, one per line kind of the MI output grammar.
const (
	// RecordPrompt is the "(gdb)" line that ends a command's output.
	RecordPrompt RecordType = iota + 1
	// RecordResult is a result record: [token]^class[,results].
	RecordResult
	// RecordExec is an exec async record: [token]*class[,results].
	RecordExec
	// RecordStatus is a status async record: [token]+class[,results].
	RecordStatus
	// RecordNotify is a notify async record: [token]=class[,results].
	RecordNotify
	// RecordConsole is a console stream record: ~"text".
	RecordConsole
	// RecordTarget is a target stream record: @"text".
	RecordTarget
	// RecordLog is a log stream record: &"text".
	RecordLog
)

var recordTypeNames = [...]string{
	RecordPrompt:  "prompt",
	RecordResult:  "result",
	RecordExec:    "exec",
	RecordStatus:  "status",
	RecordNotify:  "notify",
	RecordConsole: "console",
	RecordTarget:  "target",
	RecordLog:     "log",
}

// String names the record type.
func (t RecordType) String() string {
	if int(t) < len(recordTypeNames) && recordTypeNames[t] != "" {
		return recordTypeNames[t]
	}
	return "RecordType(" + strconv.Itoa(int(t)) + ")"
}

// IsAsync reports whether t is an exec, status or notify async record.
func (t RecordType) IsAsync() bool { return t == RecordExec || t == RecordStatus || t == RecordNotify }

// IsStream reports whether t is a console, target or log stream record.
func (t RecordType) IsStream() bool {
	return t == RecordConsole || t == RecordTarget || t == RecordLog
}

// Result classes of result records (the only five the grammar allows).
const (
	ClassDone      = "done"
	ClassRunning   = "running"
	ClassConnected = "connected"
	ClassError     = "error"
	ClassExit      = "exit"
)

// Record is one parsed line of MI output.
type Record struct {
	// Type is the line kind.
	Type RecordType
	// Token is the command token the record carries (result and async
	// records only); HasToken tells a token 0 from no token.
	Token    uint64
	HasToken bool
	// Class is the result class (done, running, connected, error, exit) or
	// the async class (stopped, running, thread-created, ...).
	Class string
	// Results holds the name=value results of a result or async record as
	// a tuple, in order with duplicates (an empty tuple when there are
	// none). It is the zero Value for stream records and prompts; lookups
	// on it then return the zero Value.
	Results Value
	// Text is the decoded text of a stream record.
	Text string
}

// Get returns the value of the record's first result called name.
func (r Record) Get(name string) Value { return r.Results.Get(name) }

// Decode fills the struct pointed to by dst from the record's results (see
// [Decode]).
func (r Record) Decode(dst any) error { return Decode(r.Results, dst) }

// String renders the record in GDB/MI syntax, without a line end.
func (r Record) String() string {
	var b strings.Builder
	if r.HasToken {
		b.WriteString(strconv.FormatUint(r.Token, 10))
	}
	switch r.Type {
	case RecordPrompt:
		return "(gdb)"
	case RecordConsole, RecordTarget, RecordLog:
		b.Reset()
		b.WriteByte(streamPrefix(r.Type))
		b.WriteString(Quote(r.Text))
		return b.String()
	case RecordResult:
		b.WriteByte('^')
	case RecordExec:
		b.WriteByte('*')
	case RecordStatus:
		b.WriteByte('+')
	case RecordNotify:
		b.WriteByte('=')
	}
	b.WriteString(r.Class)
	if len(r.Results.fields) > 0 {
		b.WriteByte(',')
		appendResults(&b, r.Results.fields)
	}
	return b.String()
}

func streamPrefix(t RecordType) byte {
	switch t {
	case RecordConsole:
		return '~'
	case RecordTarget:
		return '@'
	default:
		return '&'
	}
}
