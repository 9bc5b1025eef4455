package remote

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/ptyseam/ptyseam/core"
)

// ProtocolVersion is the newest protocol version this package speaks;
// MinProtocolVersion the oldest. A host and an agent agree on the newest
// version both speak at connect (docs/remote.md, "Versions").
const (
	ProtocolVersion    = 1
	MinProtocolVersion = 1
)

// maxFrame bounds one JSON frame (requests and responses are small; the
// bulk of the traffic is raw bytes outside frames).
const maxFrame = 1 << 20

// Operations: the first frame of every stream the host opens names one.
const (
	opSpawn       = "spawn"        // then: the session's output, raw, agent to host
	opWait        = "wait"         // answered when the top-level process exited
	opWrite       = "write"        // the request frame, then Len raw input bytes
	opProbe       = "probe"        // core.ForegroundProber
	opGroup       = "group"        // core.ForegroundGrouper.ForegroundGroup
	opSwitches    = "switches"     // core.ForegroundGrouper.LeaderSwitches
	opControlChar = "control_char" // core.ControlCharReader
	opSignal      = "signal"
	opResize      = "resize"
	opClose       = "close"
)

// request is the first frame of a stream (docs/remote.md, "Calls").
type request struct {
	Op      string `json:"op"`
	Session uint64 `json:"session,omitempty"`

	// spawn
	Type    string   `json:"type,omitempty"` // the agent's backend: "shell" or "exec"
	Command []string `json:"command,omitempty"`
	Dir     string   `json:"dir,omitempty"`
	Env     []string `json:"env,omitempty"`
	Marker  string   `json:"marker,omitempty"`

	// spawn, resize
	Size *wireSize `json:"size,omitempty"`

	// write: the number of raw bytes after the frame
	Len int `json:"len,omitempty"`

	// signal, control_char
	Signal      string `json:"signal,omitempty"`
	AllowLeader bool   `json:"allow_leader,omitempty"`
}

// response is the agent's one frame in answer (for spawn, before the
// output).
type response struct {
	Error *wireError `json:"error,omitempty"`

	// spawn
	Session      uint64 `json:"session,omitempty"`
	PID          int    `json:"pid,omitempty"`
	PromptMarker bool   `json:"prompt_marker,omitempty"`

	// wait
	Status *wireStatus `json:"status,omitempty"`

	// write
	N int `json:"n,omitempty"`

	// probe
	Foreground *wireForeground `json:"foreground,omitempty"`

	// group
	PGID   int  `json:"pgid,omitempty"`
	Leader bool `json:"leader,omitempty"`

	// switches
	Switches uint64 `json:"switches,omitempty"`

	// control_char
	Char *byte `json:"char,omitempty"`

	// signal
	Signal *wireSignalResult `json:"signal,omitempty"`
}

type wireSize struct {
	Rows uint16 `json:"rows"`
	Cols uint16 `json:"cols"`
}

type wireStatus struct {
	ExitCode int    `json:"exit_code"`
	Signal   string `json:"signal,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

type wireForeground struct {
	PGID          int    `json:"pgid"`
	Leader        bool   `json:"leader"`
	ReadingInput  bool   `json:"reading_input"`
	Switches      uint64 `json:"switches"`
	PendingOutput int    `json:"pending_output"`
	PendingInput  int    `json:"pending_input"`
	Relay         bool   `json:"relay"`
	OutputRead    uint64 `json:"output_read"`
}

type wireSignalResult struct {
	Delivered  bool   `json:"delivered"`
	TargetPGID int    `json:"target_pgid"`
	Leader     bool   `json:"leader"`
	Method     string `json:"method"`
}

// wireError is an error as it crosses the stream: the core code, the
// operation and the message; Cleanup marks a *core.CleanupError (with the
// surviving pids of the far side).
type wireError struct {
	Code      string `json:"code"`
	Op        string `json:"op,omitempty"`
	Msg       string `json:"msg"`
	Cleanup   bool   `json:"cleanup,omitempty"`
	Survivors []int  `json:"survivors,omitempty"`
}

func toWireSize(s core.Size) *wireSize { return &wireSize{Rows: s.Rows, Cols: s.Cols} }

func (s *wireSize) size() core.Size {
	if s == nil {
		return core.Size{}
	}
	return core.Size{Rows: s.Rows, Cols: s.Cols}
}

func toWireStatus(st core.Status) *wireStatus {
	return &wireStatus{ExitCode: st.ExitCode, Signal: st.Signal, Reason: st.Reason}
}

func (w *wireStatus) status() core.Status {
	return core.Status{Kind: core.StatusExited, ExitCode: w.ExitCode, Signal: w.Signal, Reason: w.Reason}
}

func toWireForeground(f core.ForegroundState) *wireForeground {
	return &wireForeground{PGID: f.PGID, Leader: f.Leader, ReadingInput: f.ReadingInput, Switches: f.Switches,
		PendingOutput: f.PendingOutput, PendingInput: f.PendingInput, Relay: f.Relay, OutputRead: f.OutputRead}
}

func (w *wireForeground) state() core.ForegroundState {
	return core.ForegroundState{PGID: w.PGID, Leader: w.Leader, ReadingInput: w.ReadingInput, Switches: w.Switches,
		PendingOutput: w.PendingOutput, PendingInput: w.PendingInput, Relay: w.Relay, OutputRead: w.OutputRead}
}

// toWireError encodes err; a plain error becomes INTERNAL.
func toWireError(op string, err error) *wireError {
	if err == nil {
		return nil
	}
	var ce *core.CleanupError
	if errors.As(err, &ce) {
		return &wireError{Code: string(core.CodeCleanupFailed), Op: op, Msg: err.Error(), Cleanup: true, Survivors: ce.Survivors}
	}
	var e *core.Error
	if errors.As(err, &e) {
		msg := e.Msg
		if e.Err != nil {
			if msg != "" {
				msg += ": "
			}
			msg += e.Err.Error()
		}
		return &wireError{Code: string(e.Code), Op: e.Op, Msg: msg}
	}
	return &wireError{Code: string(core.CodeInternal), Op: op, Msg: err.Error()}
}

// err decodes the error; the agent's message is kept, prefixed with
// "agent: " so that a reader knows which side said it.
func (w *wireError) err() error {
	if w == nil {
		return nil
	}
	if w.Cleanup {
		return &core.CleanupError{Err: errors.New("agent: " + w.Msg), Survivors: w.Survivors}
	}
	code := core.Code(w.Code)
	if code == "" {
		code = core.CodeInternal
	}
	return &core.Error{Code: code, Op: w.Op, Msg: "agent: " + w.Msg}
}

// writeFrame writes v as one frame: a 4-byte big-endian length, then JSON.
func writeFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) > maxFrame {
		return fmt.Errorf("remote: frame of %d bytes exceeds the %d-byte bound", len(b), maxFrame)
	}
	buf := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	_, err = w.Write(buf)
	return err
}

// errFrame reports a malformed frame.
var errFrame = errors.New("remote: malformed frame")

// readFrame reads one frame into v. It never reads past the frame.
func readFrame(r io.Reader, v any) error {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n == 0 || n > maxFrame {
		return fmt.Errorf("%w: length %d (at most %d)", errFrame, n, maxFrame)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %v", errFrame, err)
	}
	return nil
}
