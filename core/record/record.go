// Package record writes sessions to asciicast v2 files, which asciinema
// and asciinema-player play and `ptyseam play` prints: the terminal's
// output with its timing ("o"), resizes ("r"), the input written to it
// ("i": the model's sends, a person's keystrokes), and a marker ("m") for
// each settled send (its wait reason) and each change of control.
//
// Input typed at a prompt that hides or masks it is replaced by
// [HiddenInput]: a hidden line (echo off in canonical mode), a line that
// reads like a secret prompt, and input the program decides to show (raw
// mode, a remote shell) that the output after it does not show (see
// echo.go). No secret typed into a recorded session reaches its file.
//
// Output is gathered for [Coalesce] (5 ms) into one event: the timing is
// faithful to that resolution, and the session's read loop never waits
// for the recorder nor wakes it per read. A recording that falls 16 MiB
// behind (a disk too slow) stops with a marker saying so; the session goes
// on unrecorded. A Recorder keeps up to 4 MiB of the buffers of finished
// recordings for the next ones. On Linux a busy recording has its file
// written back and dropped from the page cache every 2 MiB, a round
// behind, so that its writes reuse warm pages (see pageDropper).
//
// Plug a [Recorder] into the service:
//
//	rec, _ := record.New(record.Options{Dir: dir, All: true})
//	svc := core.New(core.Options{OnSpawn: rec.OnSpawn, OnEvent: rec.OnEvent})
//	defer rec.Close()
package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core"
)

// HiddenInput replaces input typed at a prompt that hides or masks it.
const HiddenInput = "[hidden input]"

// DefaultMaxBytes bounds one recording file unless Options.MaxBytes says
// otherwise: past it the recording stops with a marker saying so.
const DefaultMaxBytes = 256 << 20

// Options configure a [Recorder].
type Options struct {
	// Dir is where recordings go, one <session id>.cast file per session
	// (created with mode 0700 if missing, set to 0700 if it lets others
	// in, refused if another user owns it; files are 0600).
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

	pool bufPool // buffers of finished recordings, for the next ones

	mu    sync.Mutex
	recs  map[core.SessionID]*rec
	paths map[core.SessionID]string

	// disk, when set (by tests), stands between a recording and its file.
	disk func(io.Writer) io.Writer
}

// New returns a recorder writing into opts.Dir.
func New(opts Options) (*Recorder, error) {
	if opts.Dir == "" {
		return nil, errors.New("record: Options.Dir is empty")
	}
	if err := prepareDir(opts.Dir); err != nil {
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
	w     io.Writer // the file (or what a test puts before it)
	start time.Time
	max   int64
	done  chan struct{} // closed once the file is complete and closed

	mu      sync.Mutex
	pending []core.Event // events not yet written, in order
	queued  int          // bytes of pending events' data
	lost    bool         // pending reached maxPending: events were dropped

	// Owned by the session's pump goroutine.
	pos     uint64 // raw output bytes consumed
	last    float64
	carry   [utf8.UTFMax]byte // an incomplete UTF-8 sequence at the end of output
	ncarry  int
	written int64  // bytes written to w
	out     []byte // lines not yet written to w, reused
	full    bool   // MaxBytes reached: nothing more is written
	flushed time.Time
	err     error
	pages   pageDropper // the file's pages in the page cache
	tail    []byte      // the end of the output written (keepTail)
	// An input whose echo is being judged (echo.go), written once judged;
	// the output after it is held (heldN bytes, from pos on) until then,
	// and the events after it stay pending.
	hold  *echoJudge
	held  []heldChunk
	heldN int
}

// heldChunk is output held back while an input is judged, with the time
// it arrived.
type heldChunk struct {
	at time.Time
	b  []byte
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
	var to io.Writer = f
	if r.disk != nil {
		to = r.disk(f)
	}
	x := &rec{f: f, w: to, out: r.pool.get(), start: info.Created, max: r.opts.MaxBytes, done: make(chan struct{})}
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
	if n := len(ev.Data) + eventOverhead; x.lost || x.queued+n > maxPending {
		x.lost = true // the pump stops the recording at its next turn
	} else {
		x.pending = append(x.pending, ev)
		x.queued += n
	}
	x.mu.Unlock()
}

// maxPending bounds the events a recording holds for its file (their
// data, counting eventOverhead for each): a recording whose disk does not
// take them stops, as one that falls behind the output does.
const (
	maxPending    = core.DefaultTapLimit
	eventOverhead = 256
)

// eventsLost stops the recording, with a marker, once events were dropped
// at maxPending, and reports whether it did.
func (x *rec) eventsLost() bool {
	x.mu.Lock()
	lost := x.lost
	x.mu.Unlock()
	if lost {
		x.flushEvents(x.pos) // those before the output written so far (an input judged is dropped)
		x.stop("recording stopped: the recording fell too far behind the session's inputs and markers (the disk is too slow); the rest of the session is not recorded")
	}
	return lost
}

// Coalesce is how long the recorder gathers a session's output into one
// "o" event once output arrives: the recording's timing is faithful to
// this resolution (output is stamped with the start of its interval, an
// input, resize or marker event keeps its own time and its place between
// the bytes), and a busy session costs one wake-up of the recorder per
// interval instead of one per read of the terminal.
const Coalesce = 5 * time.Millisecond

// batchBytes wakes the recorder before the interval ends once this much
// output is queued, and maxEvent bounds the output bytes of one "o" event
// (a backlog is written as several events of the same time).
// A session quiet for releaseAfter has the recorder's buffers freed; the
// file is flushed when the session is quiet and at least every flushEvery.
const (
	batchBytes   = 256 << 10
	maxEvent     = 512 << 10
	releaseAfter = time.Second
	flushEvery   = time.Second
)

// pump writes the session's output and events until its output ends.
//
// The session's read loop only appends to the tap's bounded buffer: it
// wakes the pump for the first output after a quiet interval (armed) and
// when batchBytes are queued, never per read. The pump then gathers output
// for up to Coalesce, writes it as one event, and gives the buffer back to
// the tap (Recycle). After an interval without output it flushes the file,
// after releaseAfter it frees its buffers, and waits for output again.
func (r *Recorder) pump(id core.SessionID, x *rec, tap *core.Tap) {
	defer r.wg.Done()
	defer tap.Close()
	// The tap's buffers: the last two distinct ones given to it (it keeps
	// at most two), handed to the pool once the tap is closed. The tap
	// starts with buffers of finished recordings, if any.
	var mine [2][]byte
	recycle := func(b []byte) {
		if cap(b) == 0 {
			return
		}
		tap.Recycle(b)
		if cap(mine[0]) == 0 || &mine[0][:1][0] != &b[:1][0] {
			mine[0], mine[1] = b, mine[0]
		}
	}
	recycle(r.pool.get())
	recycle(r.pool.get())
	var armed atomic.Bool
	armed.Store(true) // output queued before the policy is set wakes the pump
	tap.SetWakePolicy(batchBytes, func([]byte) bool { return armed.CompareAndSwap(true, false) })
	ended, cancel := context.WithCancel(context.Background())
	cancel() // Next(ended) takes what is queued without waiting
	const (
		busy   = iota // output arrived: gather it for Coalesce
		quiet         // the file is flushed; the buffers are kept a while
		asleep        // the buffers are freed
	)
	var (
		b     []byte
		err   error
		state = asleep
		from  time.Time // start of the interval the output arrived in
	)
	for {
		if state != busy {
			armed.Store(true)
			b, err = tap.Next(ended)
		}
		if state == busy || len(b) == 0 && errors.Is(err, core.ErrCancelled) {
			ctx, cancel := r.ctx, context.CancelFunc(func() {})
			switch state {
			case busy:
				ctx, cancel = context.WithTimeout(r.ctx, Coalesce)
			case quiet:
				ctx, cancel = context.WithTimeout(r.ctx, releaseAfter)
			}
			b, err = tap.Next(ctx)
			cancel()
			if state == busy && len(b) == 0 && errors.Is(err, core.ErrCancelled) && r.ctx.Err() == nil {
				// The interval ended: take what the wake policy held
				// (less than batchBytes); only none is a quiet one.
				b, err = tap.Next(ended)
			}
		}
		if len(b) == 0 && errors.Is(err, core.ErrCancelled) && r.ctx.Err() == nil {
			// An interval without output.
			if state == busy {
				state = quiet
				x.flush()
			} else {
				state = asleep
				r.pool.put(x.out)
				x.out = nil
				tap.Recycle(nil) // the tap may still hold one: not ours any more
				mine = [2][]byte{}
			}
			err = nil
			continue
		}
		if state != busy {
			state, from = busy, time.Now()
		}
		x.output(b, from)
		if len(b) > 0 {
			from = time.Now()
			recycle(b)
			if from.Sub(x.flushed) >= flushEvery {
				x.flush() // a session never quiet for an interval
			}
		}
		if err == nil && x.eventsLost() {
			break
		}
		if err != nil {
			if errors.Is(err, core.ErrTapOverflow) {
				x.stop("recording stopped: the recording fell too far behind the session's output (the disk is too slow); the rest of the session is not recorded")
			}
			break
		}
	}
	x.finish()
	if x.ncarry > 0 {
		x.event(time.Now(), "o", nil, x.carry[:x.ncarry])
	}
	x.flush()
	err = errors.Join(x.err, x.f.Close())
	if err != nil {
		r.log.Error("ptyseam/record: writing the recording failed", "session", id, "error", err)
	}
	tap.Close() // from here on the tap holds no buffer
	r.pool.put(mine[0])
	r.pool.put(mine[1])
	r.pool.put(x.out)
	x.out = nil
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

// flush writes the lines not yet written to the file.
func (x *rec) flush() {
	if x.err == nil && len(x.out) > 0 {
		var n int
		n, x.err = x.w.Write(x.out)
		x.written += int64(n)
		if x.err == nil && x.f != nil {
			x.pages.wrote(x.f, x.written)
		}
	}
	x.out = x.out[:0]
	x.flushed = time.Now()
}

// output writes b (the raw bytes from x.pos on), with the events that
// happened between its bytes at their offsets. While an input is judged
// (its echo awaited) the output is held, and written once it is judged.
func (x *rec) output(b []byte, now time.Time) {
	if x.hold == nil {
		b = x.pass(b, now)
		if x.hold == nil {
			return
		}
	}
	if len(b) > 0 {
		x.held = append(x.held, heldChunk{at: now, b: append([]byte(nil), b...)})
		x.heldN += len(b)
	}
	x.judge(false)
}

// pass writes b with the events at its offsets until an input to judge
// comes (x.hold is then set), and returns the bytes after it, unwritten.
func (x *rec) pass(b []byte, now time.Time) []byte {
	for len(b) > 0 {
		// The events at pos first: the next one is then after it, and
		// cuts the output where it happened.
		if x.flushEvents(x.pos) {
			return b
		}
		next, ok := x.nextOffset()
		n := len(b)
		if ok && next > x.pos && next < x.pos+uint64(n) {
			n = int(next - x.pos)
		}
		x.text(b[:n], now)
		x.keepTail(b[:n])
		x.pos += uint64(n)
		b = b[n:]
	}
	x.flushEvents(x.pos)
	return nil
}

// judge feeds the held output to the input being judged, up to the next
// input, and once it is judged writes it (or HiddenInput) and the held
// output, which may bring the next input to judge. final judges what
// cannot be judged yet as hidden (the recording ends).
func (x *rec) judge(final bool) {
	for x.hold != nil {
		j := x.hold
		// The judge sees output up to the next input; once the held
		// output reaches it, no more output counts.
		limit, reached := x.heldN, false
		if next, ok := x.nextInputOffset(); ok && next-x.pos <= uint64(limit) {
			limit, reached = int(next-x.pos), true
		}
		at := j.fed
		for _, c := range x.held {
			if at >= len(c.b) {
				at -= len(c.b)
				continue
			}
			end := min(len(c.b), at+limit-j.fed)
			if end <= at {
				break
			}
			j.feed(c.b[at:end])
			if c.at.Sub(j.ev.Time) > echoWait {
				final = true // the echo did not start in time
			}
			at = 0
		}
		last := final || x.heldN >= heldBytes || reached
		v := j.verdict(last)
		if v == undecided {
			return
		}
		x.hold = nil
		x.writeInput(j.ev, v == shown)
		held := x.held
		x.held, x.heldN = nil, 0
		for i, c := range held {
			if x.hold != nil {
				x.held = append(x.held, held[i:]...)
				for _, c := range held[i:] {
					x.heldN += len(c.b)
				}
				break
			}
			if rest := x.pass(c.b, c.at); len(rest) > 0 {
				x.held = append(x.held, heldChunk{at: c.at, b: rest})
				x.heldN += len(rest)
			}
		}
	}
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

// nextInputOffset returns the offset of the first pending input event.
func (x *rec) nextInputOffset() (uint64, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, ev := range x.pending {
		if ev.Kind == core.EventInput {
			return ev.Offset, true
		}
	}
	return 0, false
}

// flushEvents writes the pending events at or before offset, up to an
// input whose echo must be judged: it returns true when it started
// judging one (x.hold), or one was being judged already.
func (x *rec) flushEvents(offset uint64) bool {
	for x.hold == nil {
		x.mu.Lock()
		if len(x.pending) == 0 || x.pending[0].Offset > offset {
			x.mu.Unlock()
			return false
		}
		ev := x.pending[0]
		x.pending[0] = core.Event{}
		x.pending = x.pending[1:]
		x.queued -= len(ev.Data) + eventOverhead
		x.mu.Unlock()
		switch ev.Kind {
		case core.EventInput:
			switch {
			case ev.Secret:
				x.event(ev.Time, "i", nil, ev.Data) // HiddenInput already
			case !hasText(ev.Data): // keys such as Enter, arrows, Ctrl-C
				x.writeInput(ev, true)
			case x.atSecretPrompt():
				x.writeInput(ev, false)
			case ev.Echo == core.EchoByProgram || ev.Echo == core.EchoUnknown:
				x.hold = newEchoJudge(ev)
			default:
				x.writeInput(ev, true)
			}
		case core.EventResize:
			x.event(ev.Time, "r", nil, []byte(strconv.Itoa(int(ev.Size.Cols))+"x"+strconv.Itoa(int(ev.Size.Rows))))
		case core.EventSettled:
			x.event(ev.Time, "m", nil, []byte(ev.WaitReason))
		case core.EventTakeOver:
			x.event(ev.Time, "m", nil, []byte("take over: "+ev.Person))
		case core.EventHandBack:
			x.event(ev.Time, "m", nil, []byte("hand back: "+ev.Person))
		}
	}
	return true
}

// writeInput writes an input event, its bytes when shown, else
// HiddenInput (its bytes are cleared).
func (x *rec) writeInput(ev core.Event, shown bool) {
	if !shown {
		clear(ev.Data)
		ev.Data = []byte(HiddenInput)
	}
	x.event(ev.Time, "i", nil, ev.Data)
}

// finish writes what is left once the output ended: an input still
// judged is judged on the output it had, then every pending event.
func (x *rec) finish() {
	for {
		x.judge(true)
		if !x.flushEvents(^uint64(0)) {
			return
		}
	}
}

// text writes output, in events of at most maxEvent bytes, holding back
// an incomplete UTF-8 sequence at its end for the next call (JSON strings
// are UTF-8).
func (x *rec) text(b []byte, now time.Time) {
	for len(b) > maxEvent {
		x.text1(b[:maxEvent], now)
		b = b[maxEvent:]
	}
	x.text1(b, now)
}

func (x *rec) text1(b []byte, now time.Time) {
	var head []byte // the sequence held back, completed from b
	if x.ncarry > 0 {
		var h [utf8.UTFMax]byte
		n := copy(h[:], x.carry[:x.ncarry])
		for n < len(h) && len(b) > 0 && !utf8.FullRune(h[:n]) && !utf8.RuneStart(b[0]) {
			h[n] = b[0]
			n++
			b = b[1:]
		}
		if len(b) == 0 && !utf8.FullRune(h[:n]) {
			x.ncarry = copy(x.carry[:], h[:n])
			return
		}
		x.ncarry = 0
		head = h[:n]
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				x.ncarry = copy(x.carry[:], b[i:])
				b = b[:i]
			}
			break
		}
	}
	if len(head)+len(b) > 0 {
		x.event(now, "o", head, b)
	}
}

// encodeBytes is how much data an event encodes at a time into the
// recording's buffer, which goes to the file whenever it holds writeBytes
// (in one write: few system calls, no copy through a second buffer).
const (
	encodeBytes = 32 << 10
	writeBytes  = 256 << 10
)

// eventBytes bounds what an event line adds beyond its escaped data
// (time, code, brackets), and stopBytes the size limit's marker line.
const (
	eventBytes = 64
	stopBytes  = 128
)

// event writes one event line, its data head then data, its time never
// before the previous one's. A recording stops (with a marker) before an
// event that could take it past its size bound (each byte escapes to six
// at most), keeping the part of the event's data that surely fits, cut
// before a character: one large batch of output does not leave the
// recording with the marker alone.
func (x *rec) event(at time.Time, code string, head, data []byte) {
	if x.full || x.err != nil {
		return
	}
	room := x.max - x.written - int64(len(x.out)) - eventBytes - stopBytes
	if int64(6*(len(head)+len(data))) > room {
		if n := int(room/6) - len(head); n > 0 && len(data) > 0 {
			for n > 0 && !utf8.RuneStart(data[n]) {
				n--
			}
			if n > 0 {
				x.event(at, code, head, data[:n])
			}
		}
		x.stop("recording stopped: the file reached its size limit")
		return
	}
	t := max(at.Sub(x.start).Seconds(), x.last)
	x.last = t
	line := append(x.out, '[')
	line = strconv.AppendFloat(line, t, 'f', 6, 64)
	line = append(line, `, "`...)
	line = append(line, code...)
	line = append(line, `", "`...)
	line = appendJSONChars(line, head)
	for len(data) > encodeBytes {
		n := encodeBytes // a step ends before a character, never inside one
		for n > encodeBytes-utf8.UTFMax && !utf8.RuneStart(data[n]) {
			n--
		}
		line = appendJSONChars(line, data[:n])
		data = data[n:]
		if len(line) >= writeBytes {
			x.out = line
			x.write()
			line = x.out
		}
	}
	line = appendJSONChars(line, data)
	x.out = append(line, "\"]\n"...)
	if len(x.out) >= writeBytes {
		x.write()
	}
}

// write writes the buffered lines to the file (the last one possibly in
// part) without updating the time of the last flush.
func (x *rec) write() {
	flushed := x.flushed
	x.flush()
	x.flushed = flushed
}

// stop ends the recording with a marker saying why: nothing is written
// after it.
func (x *rec) stop(why string) {
	if x.full || x.err != nil {
		return
	}
	x.full = true
	note, _ := json.Marshal(why)
	x.out = fmt.Appendf(x.out, "[%.6f, \"m\", %s]\n", x.last, note)
}

// line writes one line (the header).
func (x *rec) line(b []byte) {
	x.out = append(append(x.out, b...), '\n')
}

// Close stops recording and returns once every file was written and
// closed. Sessions still running are recorded up to this point.
func (r *Recorder) Close() {
	r.cancel()
	r.wg.Wait()
}
