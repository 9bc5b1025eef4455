// Package record writes sessions to asciicast v2 files, which asciinema
// and asciinema-player play and `ptyseam play` prints: the terminal's
// output with its timing ("o"), resizes ("r"), the input written to it
// ("i": the model's sends, a person's keystrokes), and a marker ("m") for
// each settled send (its wait reason) and each change of control.
//
// Input written while the terminal reads a hidden line (a password: echo
// off in canonical mode) is replaced by [HiddenInput]: no secret typed
// into a recorded session reaches its file.
//
// Plug a [Recorder] into the service:
//
//	rec, _ := record.New(record.Options{Dir: dir, All: true})
//	svc := core.New(core.Options{OnSpawn: rec.OnSpawn, OnEvent: rec.OnEvent})
//	defer rec.Close()
package record

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core"
)

// HiddenInput replaces input written while the terminal's echo was off.
const HiddenInput = "[hidden input]"

// DefaultMaxBytes bounds one recording file unless Options.MaxBytes says
// otherwise: past it the recording stops with a marker saying so.
const DefaultMaxBytes = 256 << 20

// Options configure a [Recorder].
type Options struct {
	// Dir is where recordings go, one <session id>.cast file per session
	// (created with mode 0700 if missing; files are 0600).
	Dir string
	// All records every session; otherwise only sessions spawned with
	// core.SpawnRequest.Record.
	All bool
	// MaxBytes bounds one file. Default DefaultMaxBytes.
	MaxBytes int64
	// Logger receives failures to write (never terminal bytes). Default
	// slog.Default().
	Logger *slog.Logger
}

// Recorder records sessions of a service (see the package doc).
type Recorder struct {
	opts Options
	log  *slog.Logger

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	recs  map[core.SessionID]*rec
	paths map[core.SessionID]string
}

// New returns a recorder writing into opts.Dir.
func New(opts Options) (*Recorder, error) {
	if opts.Dir == "" {
		return nil, errors.New("record: Options.Dir is empty")
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Recorder{opts: opts, log: opts.Logger, ctx: ctx, cancel: cancel, recs: map[core.SessionID]*rec{}, paths: map[core.SessionID]string{}}, nil
}

// Path returns the file a session is recorded to, or "" when it is not.
func (r *Recorder) Path(id core.SessionID) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.paths[id]
}

// rec is one session's recording.
type rec struct {
	f     *os.File
	w     *bufio.Writer
	start time.Time
	max   int64
	done  chan struct{} // closed once the file is complete and closed

	mu      sync.Mutex
	pending []core.Event // events not yet written, in order

	// Owned by the session's goroutine.
	pos     uint64  // raw output bytes consumed
	last    float64 // time of the last event written, in seconds
	carry   []byte  // an incomplete UTF-8 sequence at the end of output
	written int64
	buf     []byte // the line being written, reused
	full    bool   // MaxBytes reached: nothing more is written
	err     error
}

// OnSpawn starts recording a new session when it should be
// (core.Options.OnSpawn).
func (r *Recorder) OnSpawn(info core.SessionInfo, owner *core.Owner, tap *core.Tap) {
	if !r.opts.All && !info.Record {
		tap.Close()
		return
	}
	path := filepath.Join(r.opts.Dir, string(info.ID)+".cast")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		r.log.Error("ptyseam/record: cannot create the recording", "session", info.ID, "error", err)
		tap.Close()
		return
	}
	size := info.Size
	if size.Rows == 0 || size.Cols == 0 {
		size = core.DefaultSize
	}
	x := &rec{f: f, w: bufio.NewWriterSize(f, 64<<10), start: info.Created, max: r.opts.MaxBytes, done: make(chan struct{})}
	hdr, _ := json.Marshal(header{Version: 2, Width: int(size.Cols), Height: int(size.Rows), Timestamp: info.Created.Unix(),
		Title: title(info), Env: map[string]string{"TERM": "xterm-256color"}})
	x.line(hdr)
	r.mu.Lock()
	r.recs[info.ID] = x
	r.paths[info.ID] = path
	r.wg.Add(1)
	r.mu.Unlock()
	go r.pump(info.ID, x, tap)
}

// header is an asciicast v2 header line.
type header struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

func title(info core.SessionInfo) string {
	t := "ptyseam " + string(info.ID)
	if info.Name != "" {
		t += " (" + info.Name + ")"
	}
	return t
}

// OnEvent queues a session's event for its recording
// (core.Options.OnEvent: called under the session's lock, before the
// output that follows the event is fed to the recording's tap).
func (r *Recorder) OnEvent(ev core.Event) {
	r.mu.Lock()
	x := r.recs[ev.Session]
	r.mu.Unlock()
	if x == nil {
		return
	}
	switch ev.Kind {
	case core.EventInput:
		if ev.Secret {
			ev.Data = []byte(HiddenInput)
		} else {
			ev.Data = append([]byte(nil), ev.Data...) // the caller's buffer
		}
	case core.EventResize, core.EventSettled, core.EventTakeOver, core.EventHandBack:
	default:
		return
	}
	x.mu.Lock()
	x.pending = append(x.pending, ev)
	x.mu.Unlock()
}

// pump writes the session's output and events until its output ends.
func (r *Recorder) pump(id core.SessionID, x *rec, tap *core.Tap) {
	defer r.wg.Done()
	defer tap.Close()
	for {
		b, err := tap.Next(r.ctx)
		x.output(b, time.Now())
		if err != nil {
			break
		}
	}
	x.flushEvents(^uint64(0))
	if len(x.carry) > 0 {
		x.event(time.Now(), "o", x.carry)
	}
	err := errors.Join(x.err, x.w.Flush(), x.f.Close())
	if err != nil {
		r.log.Error("ptyseam/record: writing the recording failed", "session", id, "error", err)
	}
	r.mu.Lock()
	delete(r.recs, id)
	r.mu.Unlock()
	close(x.done)
}

// Wait returns once the recording of a session is complete and its file
// closed (its output ended, or Close was called), at once for a session
// not being recorded, or with ctx's error when ctx ends first.
func (r *Recorder) Wait(ctx context.Context, id core.SessionID) error {
	r.mu.Lock()
	x := r.recs[id]
	r.mu.Unlock()
	if x == nil {
		return nil
	}
	select {
	case <-x.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// output writes b (the raw bytes from x.pos on), with the events that
// happened between its bytes at their offsets.
func (x *rec) output(b []byte, now time.Time) {
	for len(b) > 0 {
		next, ok := x.nextOffset()
		n := len(b)
		if ok && next > x.pos && next < x.pos+uint64(n) {
			n = int(next - x.pos)
		}
		x.flushEvents(x.pos)
		x.text(b[:n], now)
		x.pos += uint64(n)
		b = b[n:]
	}
	x.flushEvents(x.pos)
}

// nextOffset returns the offset of the first pending event.
func (x *rec) nextOffset() (uint64, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.pending) == 0 {
		return 0, false
	}
	return x.pending[0].Offset, true
}

// flushEvents writes the pending events at or before offset.
func (x *rec) flushEvents(offset uint64) {
	x.mu.Lock()
	i := 0
	for i < len(x.pending) && x.pending[i].Offset <= offset {
		i++
	}
	evs := x.pending[:i:i]
	x.pending = x.pending[i:]
	x.mu.Unlock()
	for _, ev := range evs {
		switch ev.Kind {
		case core.EventInput:
			x.event(ev.Time, "i", ev.Data)
		case core.EventResize:
			x.event(ev.Time, "r", []byte(strconv.Itoa(int(ev.Size.Cols))+"x"+strconv.Itoa(int(ev.Size.Rows))))
		case core.EventSettled:
			x.event(ev.Time, "m", []byte(ev.WaitReason))
		case core.EventTakeOver:
			x.event(ev.Time, "m", []byte("take over: "+ev.Person))
		case core.EventHandBack:
			x.event(ev.Time, "m", []byte("hand back: "+ev.Person))
		}
	}
}

// text writes output, holding back an incomplete UTF-8 sequence at its
// end for the next call (JSON strings are UTF-8).
func (x *rec) text(b []byte, now time.Time) {
	if len(x.carry) > 0 {
		b = append(x.carry, b...)
		x.carry = nil
	}
	cut := len(b)
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				cut = i
			}
			break
		}
	}
	if cut < len(b) {
		x.carry = append([]byte(nil), b[cut:]...)
		b = b[:cut]
	}
	if len(b) > 0 {
		x.event(now, "o", b)
	}
}

// event writes one event line, its time never before the previous one's.
func (x *rec) event(at time.Time, code string, data []byte) {
	t := max(at.Sub(x.start).Seconds(), x.last)
	x.last = t
	line := append(x.buf[:0], '[')
	line = strconv.AppendFloat(line, t, 'f', 6, 64)
	line = append(line, `, "`...)
	line = append(line, code...)
	line = append(line, `", `...)
	line = appendJSONString(line, data)
	line = append(line, ']')
	x.buf = line
	x.line(line)
}

// line writes one line, stopping the recording at its size bound.
func (x *rec) line(b []byte) {
	if x.full || x.err != nil {
		return
	}
	if x.written+int64(len(b))+1 > x.max {
		x.full = true
		note, _ := json.Marshal("recording stopped: the file reached its size limit")
		_, x.err = fmt.Fprintf(x.w, "[%.6f, \"m\", %s]\n", x.last, note)
		return
	}
	n, err := x.w.Write(b)
	if err == nil {
		err = x.w.WriteByte('\n')
		n++
	}
	x.written += int64(n)
	x.err = err
}

// Close stops recording and returns once every file was written and
// closed. Sessions still running are recorded up to this point.
func (r *Recorder) Close() {
	r.cancel()
	r.wg.Wait()
}
