package gdbmi

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Service is the part of the ptyseam seam the client uses; *core.Service
// implements it.
type Service interface {
	Spawn(ctx context.Context, owner *core.Owner, req core.SpawnRequest) (core.SpawnResult, error)
	Tap(owner *core.Owner, id core.SessionID) (*core.Tap, error)
	Write(ctx context.Context, owner *core.Owner, id core.SessionID, data []byte) (int, error)
	Info(owner *core.Owner, id core.SessionID) (core.SessionInfo, error)
	Wait(ctx context.Context, owner *core.Owner, id core.SessionID) (core.Status, error)
	Read(owner *core.Owner, id core.SessionID, req core.PageRequest) (core.PageResult, error)
	Signal(ctx context.Context, owner *core.Owner, id core.SessionID, req core.SignalRequest) (core.SignalResult, error)
	Close(ctx context.Context, owner *core.Owner, id core.SessionID, reason string) (bool, error)
	DrainOutput(ctx context.Context, owner *core.Owner, id core.SessionID) error
}

// Options configure [Start]. The zero value starts "gdb" with no program.
type Options struct {
	// Owner owns the two sessions the client opens (gdb's and the
	// program's terminal). Default: a new owner named "gdbmi".
	Owner *core.Owner
	// GDB is the gdb executable. Default "gdb".
	GDB string
	// GDBArgs are extra gdb command-line arguments (the client always
	// passes -q -nx -i=mi3 or -i=mi2).
	GDBArgs []string
	// Interpreter forces "mi3" or "mi2". Default: mi3, falling back to mi2
	// when gdb does not know mi3.
	Interpreter string
	// Program is the executable to debug (loaded with
	// -file-exec-and-symbols); empty loads nothing.
	Program string
	// Args are the program's arguments (-exec-arguments).
	Args []string
	// Dir is gdb's working directory (the program inherits it).
	Dir string
	// Env holds extra NAME=VALUE variables for gdb and the program.
	Env []string
	// Charset is passed to "-gdb-set charset" so that non-ASCII text in
	// the program's data comes back as the same bytes. Default "UTF-8";
	// "-" keeps gdb's own choice.
	Charset string
	// SoftwareWatchpoints makes gdb implement write watchpoints in
	// software (-gdb-set can-use-hw-watchpoints 0): needed where the
	// kernel or a virtual machine does not honour the processor's debug
	// registers (hardware watchpoints then never trigger, and
	// [Client.WatchInsert] refuses them with [ErrNoHardwareWatchpoints]).
	// Much slower: gdb single-steps the program.
	SoftwareWatchpoints bool
	// RawVarObjects leaves gdb's pretty-printers out of variable objects
	// (the client otherwise sends -enable-pretty-printing): a C++
	// container's children are then the library's own members, not its
	// elements. Values printed by [Client.Evaluate] and the console are
	// pretty-printed either way.
	RawVarObjects bool
	// EventBuffer bounds the events queued for a reader of
	// [Client.Events] that falls behind (the oldest are dropped and
	// counted in [Event.Missed]). Default 4096.
	EventBuffer int
}

// Result is a command's result record and the stream output gdb printed
// for it.
type Result struct {
	// Token is the command's token.
	Token uint64
	// Class is the result class: done, running, connected, error or exit.
	Class string
	// Results holds the result record's name=value results as a tuple.
	Results Value
	// Console, Target and Log collect the console (~), target (@) and log
	// (&) stream text gdb printed while the command was outstanding.
	Console, Target, Log string
}

// Get returns the value of the first result called name.
func (r *Result) Get(name string) Value { return r.Results.Get(name) }

// Decode fills the struct dst points to from the results (see [Decode]).
func (r *Result) Decode(dst any) error { return Decode(r.Results, dst) }

// Client drives one gdb through GDB/MI on a ptyseam session. Its methods
// are safe for concurrent use.
type Client struct {
	svc     Service
	owner   *core.Owner
	opts    Options
	progID  core.SessionID
	pts     string
	progOut *outputWatcher
	// ownService is the service StartLocal made; Close shuts it down.
	ownService *core.Service

	gdbID core.SessionID
	tap   *core.Tap
	mi    string
	async bool

	writeSem chan struct{}
	nextTok  atomic.Uint64

	fenceOnce  sync.Once
	fenceNonce string
	fenceSeq   atomic.Uint64

	mu         sync.Mutex
	pending    map[uint64]*call
	inflight   []*call // written, no result yet, in write order
	dead       *ExitedError
	closed     bool
	released   bool // waiters released (releaseLocked)
	stops      []*StoppedEvent
	stopWake   chan struct{}
	prompts    uint64
	promptWake chan struct{}
	noise      []string

	events      *eventQueue
	eventsCh    chan Event
	stopDeliver chan struct{}
	deliverDone chan struct{}
	readerDone  chan struct{}
	cancelRead  context.CancelFunc

	closeOnce sync.Once
	closeErr  error

	// hwMu guards the probe of hardware watchpoints (hwwatch.go) and its
	// answer: hwWorks, valid once hwKnown.
	hwMu    sync.Mutex
	hwKnown bool
	hwWorks bool
}

type call struct {
	token   uint64
	command string
	done    chan struct{}
	rec     Record
	console strings.Builder
	target  strings.Builder
	log     strings.Builder
	err     error
	// fence, when set, marks where the command's own console text starts
	// and ends (see [Client.Console]).
	fence *consoleFence
}

// CloseExitWait bounds how long [Client.Close] waits for gdb to exit after
// asking it to (-gdb-exit) before it hangs gdb's terminal up regardless
// (gdb then still detaches from attached processes on the hangup, or the
// kernel does when gdb dies). Waiting calls are released before this wait.
const CloseExitWait = 5 * time.Second

// stopDrainWait bounds how long a stop waits for the program's output
// (drainProgram): the program stopped or exited, so only another process
// on its terminal that never stops printing could use it up.
const stopDrainWait = 2 * time.Second

const (
	maxNoise     = 20
	maxStops     = 1024
	startTimeout = 30 * time.Second
)

func newClient(svc Service, opts Options, progID core.SessionID, pts string, progOut *outputWatcher) *Client {
	c := &Client{
		svc:         svc,
		owner:       opts.Owner,
		opts:        opts,
		progID:      progID,
		pts:         pts,
		progOut:     progOut,
		writeSem:    make(chan struct{}, 1),
		pending:     make(map[uint64]*call),
		stopWake:    make(chan struct{}),
		promptWake:  make(chan struct{}),
		events:      newEventQueue(opts.EventBuffer),
		eventsCh:    make(chan Event),
		stopDeliver: make(chan struct{}),
		deliverDone: make(chan struct{}),
		readerDone:  make(chan struct{}),
	}
	go func() {
		defer close(c.deliverDone)
		c.events.deliver(c.eventsCh, c.stopDeliver)
	}()
	return c
}

// Events returns the channel on which async events arrive, in gdb's order:
// exec records (*stopped, *running), status and notify records (threads,
// libraries, breakpoints), stream text that arrived while no command was
// outstanding, and lines that are not MI. Events are queued by the reader
// and handed over by a goroutine of their own, so a slow consumer never
// stalls the client (past [Options.EventBuffer] the oldest are dropped).
// The channel is closed after gdb's output ended and the queued events
// were delivered, or at Close. Every call returns the same channel.
func (c *Client) Events() <-chan Event { return c.eventsCh }

// MIVersion returns the interpreter in use: "mi3" or "mi2".
func (c *Client) MIVersion() string { return c.mi }

// Owner returns the owner of the client's sessions.
func (c *Client) Owner() *core.Owner { return c.owner }

// GDBSession returns the id of the session gdb runs on.
func (c *Client) GDBSession() core.SessionID { return c.gdbID }

// ProgramSession returns the id of the session whose terminal the debugged
// program uses for its input and output. Read it like any session (pages,
// tails) with [Client.Owner]; write to it to give the program input.
func (c *Client) ProgramSession() core.SessionID { return c.progID }

// ProgramTTY returns the path of the program's terminal ("/dev/pts/N").
func (c *Client) ProgramTTY() string { return c.pts }

// ProgramOutput returns a page of what the debugged program printed (its
// terminal's scrollback). Everything the program printed before a stop
// (or its exit) that [Client.WaitStopped] or [Client.Events] reported is
// in it: the client reports a stop only once the program's session has
// taken that output in.
func (c *Client) ProgramOutput(req core.PageRequest) (core.PageResult, error) {
	return c.svc.Read(c.owner, c.progID, req)
}

// WriteProgram writes input to the debugged program's terminal.
func (c *Client) WriteProgram(ctx context.Context, data []byte) (int, error) {
	return c.svc.Write(ctx, c.owner, c.progID, data)
}

// Err returns nil while gdb runs, and the [*ExitedError] once it is gone.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead != nil {
		return c.dead
	}
	return nil
}

// Done returns a channel that is closed once gdb's output has ended (gdb
// exited or was killed) or the client was closed.
func (c *Client) Done() <-chan struct{} { return c.readerDone }

// Close ends gdb and the program, closes both sessions (to quiescence: no
// process they started survives) and stops the client's goroutines.
//
// Calls still waiting (commands, [Client.WaitStopped]) return [ErrClosed]
// at once, whatever gdb is doing; later calls return it too. Then, if gdb
// is idle (no command of the client outstanding, so gdb reads the next
// one at once), Close asks it to exit (-gdb-exit) and waits up to
// [CloseExitWait] for gdb's exit: gdb kills the programs it started and
// detaches from the processes it attached to, which keep running. A gdb
// busy with a command (a "shell sleep 20") would read -gdb-exit only when
// that ends, so Close hangs its terminal up at once instead: gdb takes the
// hangup as a request to quit, and the service ends whatever is left.
// Close is idempotent.
func (c *Client) Close(ctx context.Context) error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		idle := c.dead == nil && len(c.inflight) == 0
		c.releaseLocked(ErrClosed)
		c.mu.Unlock()
		if idle && c.gdbID != "" {
			c.askExit(ctx)
		}
		c.closeErr = c.shutdown(ctx, true)
		if c.ownService != nil {
			if err := c.ownService.Shutdown(ctx); err != nil {
				c.closeErr = errors.Join(c.closeErr, err)
			}
		}
	})
	return c.closeErr
}

// askExit writes -gdb-exit and waits up to CloseExitWait for gdb's
// session to record its exit. Nothing waits on the command's answer.
func (c *Client) askExit(ctx context.Context) {
	ectx, cancel := context.WithTimeout(ctx, CloseExitWait)
	defer cancel()
	select {
	case c.writeSem <- struct{}{}:
	case <-ectx.Done():
		return
	}
	_, err := c.svc.Write(ectx, c.owner, c.gdbID, []byte("-gdb-exit\n"))
	<-c.writeSem
	if err == nil {
		_, _ = c.svc.Wait(ectx, c.owner, c.gdbID)
	}
}

// shutdown closes gdb's session (and the program's when withProgram, at
// the same time), stops the reader and the event delivery.
func (c *Client) shutdown(ctx context.Context, withProgram bool) error {
	var progErr error
	progClosed := make(chan struct{})
	go func() {
		defer close(progClosed)
		if withProgram && c.progID != "" {
			progErr = c.closeSession(ctx, c.progID)
		}
	}()
	var errs []error
	if c.gdbID != "" {
		errs = append(errs, c.closeSession(ctx, c.gdbID))
	}
	<-progClosed
	errs = append(errs, progErr)
	if withProgram && c.progOut != nil {
		c.progOut.stop()
	}
	if c.cancelRead != nil {
		c.cancelRead()
		<-c.readerDone
	}
	if c.tap != nil {
		c.tap.Close()
	}
	c.fail(nil)
	close(c.stopDeliver)
	<-c.deliverDone
	return errors.Join(errs...)
}

// closeSession closes one of the client's sessions; one already gone is
// no error.
func (c *Client) closeSession(ctx context.Context, id core.SessionID) error {
	_, err := c.svc.Close(ctx, c.owner, id, "gdbmi: client closed")
	if err != nil && !errors.Is(err, core.ErrNoSession) {
		return err
	}
	return nil
}

// readLoop frames gdb's raw output and dispatches every line.
func (c *Client) readLoop(ctx context.Context) {
	defer close(c.readerDone)
	var f Framer
	var lines []Line
	for {
		chunk, err := c.tap.Next(ctx)
		if len(chunk) > 0 {
			lines = f.Feed(lines[:0], chunk)
			for i := range lines {
				c.handle(ctx, lines[i])
				lines[i] = Line{}
			}
		}
		if err != nil {
			for _, l := range f.Flush(lines[:0]) {
				c.handle(ctx, l)
			}
			var cause error
			if !errors.Is(err, io.EOF) && ctx.Err() == nil {
				cause = err
			}
			c.fail(cause)
			return
		}
	}
}

// fail marks gdb as gone and releases every waiter at once (with the
// [*ExitedError], unless Close released them already).
func (c *Client) fail(cause error) {
	c.mu.Lock()
	if c.dead != nil {
		c.mu.Unlock()
		return
	}
	closed := c.closed
	c.mu.Unlock()
	st := c.exitStatus(!closed)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead != nil {
		return
	}
	c.dead = &ExitedError{Status: st, Err: cause}
	c.releaseLocked(c.dead)
}

// releaseLocked ends every call waiting on gdb: pending commands return
// err, WaitStopped and the start's wait for the prompt wake up (and see
// c.closed or c.dead), the event queue ends. It runs once, at Close or
// when gdb's output ends, whichever comes first. c.mu is held.
func (c *Client) releaseLocked(err error) {
	if c.released {
		return
	}
	c.released = true
	for _, cl := range c.inflight {
		cl.err = err
		close(cl.done)
	}
	c.inflight = nil
	clear(c.pending)
	c.wakeStopsLocked()
	c.wakePromptLocked()
	c.events.end()
}

// wakeStopsLocked wakes the WaitStopped calls waiting for a stop.
func (c *Client) wakeStopsLocked() {
	close(c.stopWake)
	c.stopWake = make(chan struct{})
}

// wakePromptLocked wakes the wait for gdb's first prompt.
func (c *Client) wakePromptLocked() {
	close(c.promptWake)
	c.promptWake = make(chan struct{})
}

// exitStatus returns gdb's status; with wait, it waits briefly for the
// service to record an exit that the end of output announced.
func (c *Client) exitStatus(wait bool) core.Status {
	if c.gdbID == "" {
		return core.Running
	}
	if info, err := c.svc.Info(c.owner, c.gdbID); err == nil && info.Status.Exited() {
		return info.Status
	}
	if !wait {
		return core.Running
	}
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	st, err := c.svc.Wait(ctx, c.owner, c.gdbID)
	if err != nil {
		return core.Running
	}
	return st
}

// drainProgram waits until the output the program wrote to its terminal
// is in the program's session, so that a stop (and an exit) is reported
// only once [Client.ProgramOutput] and [Client.WaitProgramOutput] have
// everything printed before it. gdb reports a stop after the program
// stopped or exited, so all it printed is in the terminal by then; the
// session's reader takes it in a moment later. A failure (the terminal is
// gone) leaves nothing to wait for.
func (c *Client) drainProgram(ctx context.Context) {
	if c.progID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, stopDrainWait)
	defer cancel()
	_ = c.svc.DrainOutput(ctx, c.owner, c.progID)
}

// handle dispatches one line of gdb's output. It runs on the reader
// goroutine and never blocks on a consumer; it waits only for the
// program's terminal before a stop (drainProgram).
func (c *Client) handle(ctx context.Context, l Line) {
	if l.Err != nil {
		c.mu.Lock()
		c.noise = append(c.noise, l.Text)
		if len(c.noise) > maxNoise {
			c.noise = c.noise[len(c.noise)-maxNoise:]
		}
		c.mu.Unlock()
		c.events.push(Event{Text: l.Text, Err: l.Err})
		return
	}
	r := l.Record
	switch {
	case r.Type == RecordPrompt:
		c.mu.Lock()
		c.prompts++
		c.wakePromptLocked()
		c.mu.Unlock()
	case r.Type == RecordResult:
		c.mu.Lock()
		var cl *call
		if r.HasToken {
			cl = c.pending[r.Token]
		}
		if cl == nil {
			c.mu.Unlock()
			c.events.push(Event{Record: r})
			return
		}
		delete(c.pending, r.Token)
		for i, x := range c.inflight {
			if x == cl {
				c.inflight = append(c.inflight[:i], c.inflight[i+1:]...)
				break
			}
		}
		// A command completes on its result record, never on the prompt:
		// in asynchronous mode gdb prints the prompt after some results
		// (-target-attach) only once the next command arrives, and after
		// ^exit there is none.
		cl.rec = r
		var outside []string
		if cl.fence != nil {
			var own string
			own, outside = cl.fence.finish()
			cl.console.WriteString(own)
		}
		close(cl.done)
		c.mu.Unlock()
		for _, text := range outside {
			c.events.push(Event{Record: Record{Type: RecordConsole, Text: text}})
		}
	case r.Type.IsStream():
		c.mu.Lock()
		// gdb runs commands in order and prints a command's stream
		// output before its result: it belongs to the oldest command
		// still without a result.
		var cl *call
		if len(c.inflight) > 0 {
			cl = c.inflight[0]
		}
		if cl != nil {
			var outside []string
			switch {
			case r.Type == RecordConsole && cl.fence != nil:
				// A Console call: text outside its markers is gdb's own
				// (thread messages) and goes to the events now, in order.
				outside = cl.fence.feed(r.Text)
			case r.Type == RecordConsole:
				cl.console.WriteString(r.Text)
			case r.Type == RecordTarget:
				cl.target.WriteString(r.Text)
			default:
				cl.log.WriteString(r.Text)
			}
			c.mu.Unlock()
			for _, text := range outside {
				c.events.push(Event{Record: Record{Type: RecordConsole, Text: text}})
			}
			return
		}
		c.mu.Unlock()
		c.events.push(Event{Record: r})
	default:
		ev := Event{Record: r}
		switch {
		case r.Type == RecordExec && r.Class == "stopped":
			c.drainProgram(ctx)
			st := decodeStopped(r)
			ev.Stopped = st
			c.mu.Lock()
			c.stops = append(c.stops, st)
			if len(c.stops) > maxStops {
				c.stops = c.stops[len(c.stops)-maxStops:]
			}
			c.wakeStopsLocked()
			c.mu.Unlock()
		case r.Type == RecordNotify && (r.Class == "breakpoint-created" || r.Class == "breakpoint-modified"):
			var b struct {
				Bkpt Breakpoint `mi:"bkpt"`
			}
			if r.Decode(&b) == nil {
				ev.Breakpoint = &b.Bkpt
			}
		case r.Type == RecordNotify && (r.Class == "thread-created" || r.Class == "thread-exited" || r.Class == "thread-selected"):
			var th ThreadNotice
			if r.Decode(&th) == nil {
				ev.Thread = &th
			}
		case r.Type == RecordNotify && (r.Class == "library-loaded" || r.Class == "library-unloaded"):
			var lib Library
			if r.Decode(&lib) == nil {
				ev.Library = &lib
			}
		}
		c.events.push(ev)
	}
}
