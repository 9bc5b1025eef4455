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
	opForeground  = "foreground"   // core.Prober.Foreground
	opInputWait   = "input_wait"   // core.Prober.InputWait
	opControlChar = "control_char" // core.Prober.ControlChar
	opEchoMode    = "echo_mode"    // core.Prober.EchoMode
	opReader      = "reader"       // core.Prober.DescribeReader
	opProgram     = "program"      // core.Prober.DescribeForeground
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

	// input_wait: the baseline and the output bytes the host took in
	Base  *wireBaseline `json:"base,omitempty"`
	Taken uint64        `json:"taken,omitempty"`

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

	// foreground
	Baseline *wireBaseline `json:"baseline,omitempty"`

	// input_wait
	Wait *wireInputWait `json:"wait,omitempty"`

	// control_char: the key (absent: disabled) and whether the
	// program reads the terminal raw (core.ControlKey)
	Char *byte `json:"char,omitempty"`
	Raw  bool  `json:"raw,omitempty"`

	// echo_mode: "on", "hidden", "by_program" (absent: unknown)
	Echo string `json:"echo,omitempty"`

	// reader
	Reader *wireReader `json:"reader,omitempty"`

	// program
	Program *wireProgram `json:"program,omitempty"`

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

// wireBaseline is core.InputBaseline. Readers was added within version 1:
// a peer without it drops it, and core.InputBaseline.Differs then compares
// Group and Wakes alone, as that peer did.
type wireBaseline struct {
	Group   int    `json:"group"`
	Leader  bool   `json:"leader"`
	Wakes   uint64 `json:"wakes"`
	Readers uint64 `json:"readers,omitempty"`
}

type wireInputWait struct {
	Now     wireBaseline `json:"now"`
	Reading bool         `json:"reading"`
	Waiting bool         `json:"waiting"`
	New     bool         `json:"new"`
	Relay   bool         `json:"relay"`
	// EventLoop is core.InputWait.EventLoop; an agent that predates it
	// leaves it out, and its reads settle as they did.
	EventLoop bool `json:"eventLoop,omitempty"`
	// SideThread is core.InputWait.SideThread.
	SideThread bool `json:"sideThread,omitempty"`
	// Hidden is core.InputWait.Hidden; an agent that predates it leaves
	// it out (false: no hint).
	Hidden bool `json:"hidden,omitempty"`
	// Dialog is core.InputWait.Dialog.
	Dialog bool `json:"dialog,omitempty"`
}

// wireProgram is core.ForegroundProgram with the leader flag of
// core.Prober.DescribeForeground.
type wireProgram struct {
	Group            int    `json:"group"`
	Leader           bool   `json:"leader,omitempty"`
	Name             string `json:"name,omitempty"`
	Reading          bool   `json:"reading,omitempty"`
	UnreadInput      int    `json:"unread_input"`
	IgnoresInterrupt bool   `json:"ignores_interrupt,omitempty"`
}

// toWireProgram carries p as the backend described it: the host's core
// bounds and cleans the name, whatever an agent sends (the frame bounds
// its size).
func toWireProgram(p core.ForegroundProgram, leader bool) *wireProgram {
	return &wireProgram{Group: p.Group, Leader: leader, Name: p.Name, Reading: p.Reading, UnreadInput: p.UnreadInput, IgnoresInterrupt: p.IgnoresInterrupt}
}

func (w *wireProgram) program() (core.ForegroundProgram, bool) {
	return core.ForegroundProgram{Group: w.Group, Name: w.Name, Reading: w.Reading, UnreadInput: w.UnreadInput, IgnoresInterrupt: w.IgnoresInterrupt}, w.Leader
}

// wireReader is core.TerminalReader.
type wireReader struct {
	Group    int                 `json:"group"`
	Leader   bool                `json:"leader,omitempty"`
	Programs []wireReaderProgram `json:"programs,omitempty"`
}

type wireReaderProgram struct {
	PID     int      `json:"pid"`
	Exe     string   `json:"exe,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	Reading bool     `json:"reading,omitempty"`
}

// maxReaderArgs bounds the arguments kept of each program an agent
// describes, as core.MaxReaderPrograms bounds the programs.
const maxReaderArgs = 64

func toWireReader(r core.TerminalReader) *wireReader {
	w := &wireReader{Group: r.Group, Leader: r.Leader}
	for _, p := range r.Programs {
		w.Programs = append(w.Programs, wireReaderProgram{PID: p.PID, Exe: p.Exe, Argv: p.Argv, Reading: p.Reading})
	}
	return w
}

// reader decodes w, keeping at most core.MaxReaderPrograms programs of
// at most maxReaderArgs arguments each: the agent is not trusted to
// bound them.
func (w *wireReader) reader() core.TerminalReader {
	r := core.TerminalReader{Group: w.Group, Leader: w.Leader}
	for _, p := range w.Programs[:min(len(w.Programs), core.MaxReaderPrograms)] {
		r.Programs = append(r.Programs, core.ReaderProgram{PID: p.PID, Exe: p.Exe, Argv: p.Argv[:min(len(p.Argv), maxReaderArgs)], Reading: p.Reading})
	}
	return r
}

type wireSignalResult struct {
	Delivered  bool   `json:"delivered"`
	TargetPGID int    `json:"target_pgid"`
	Leader     bool   `json:"leader"`
	Method     string `json:"method"`
	Ignored    bool   `json:"ignored,omitempty"`
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

func toWireBaseline(b core.InputBaseline) *wireBaseline {
	return &wireBaseline{Group: b.Group, Leader: b.Leader, Wakes: b.Wakes, Readers: b.Readers}
}

func (w *wireBaseline) baseline() core.InputBaseline {
	if w == nil {
		return core.InputBaseline{}
	}
	return core.InputBaseline{Group: w.Group, Leader: w.Leader, Wakes: w.Wakes, Readers: w.Readers}
}

func toWireInputWait(iw core.InputWait) *wireInputWait {
	return &wireInputWait{Now: *toWireBaseline(iw.Now), Reading: iw.Reading, Waiting: iw.Waiting, New: iw.New, Relay: iw.Relay, EventLoop: iw.EventLoop, SideThread: iw.SideThread, Hidden: iw.Hidden, Dialog: iw.Dialog}
}

func (w *wireInputWait) inputWait() core.InputWait {
	return core.InputWait{Now: w.Now.baseline(), Reading: w.Reading, Waiting: w.Waiting, New: w.New, Relay: w.Relay, EventLoop: w.EventLoop, SideThread: w.SideThread, Hidden: w.Hidden, Dialog: w.Dialog}
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
