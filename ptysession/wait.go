package ptysession

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/pattern"
)

// WaitKind names the kind of a wait condition.
type WaitKind string

// Wait condition kinds.
const (
	// WaitOutput fires when a line of Target's output the caller has not
	// been shown (see FromLine) matches Pattern (a Go regular expression).
	WaitOutput WaitKind = "output"
	// WaitPort fires when TCP Port on this host (localhost) accepts a
	// connection.
	WaitPort WaitKind = "port"
	// WaitExit fires when Target's program exited.
	WaitExit WaitKind = "exit"
	// WaitInput fires when whatever holds Target's terminal waits to read
	// it: a program asking a question, or the shell back at its prompt.
	// Only sessions whose backend probes the foreground can tell.
	WaitInput WaitKind = "input"
	// WaitScreen fires when Target's screen (what its terminal shows, for
	// full-screen programs) changes from what it showed when the wait
	// began, or, with Pattern, when a row of it matches Pattern. It needs
	// a [WaitSource] that is also a [ScreenPeeker].
	WaitScreen WaitKind = "screen"
)

// ScreenPeeker lets a wait read sessions' screens; a [WaitSource] that
// also implements it serves WaitScreen conditions (*screen.Manager has
// the method).
type ScreenPeeker interface {
	// PeekScreen returns the rows the session's terminal shows now,
	// without disturbing anyone else's view of what changed.
	PeekScreen(ctx context.Context, owner *core.Owner, id core.SessionID) ([]string, error)
}

// Bounds of a [WaitRequest].
const (
	MaxWaitConditions = 16
	// MaxWaitPattern bounds a pattern to wait for or search with (pty_wait,
	// pty_search, bg_launch's waitFor.line, bg_read), in bytes: the one
	// bound of every caller's pattern.
	MaxWaitPattern  = pattern.MaxLen
	DefaultWaitTime = 30 * time.Second
	// waitTick is how often a wait checks its conditions: the server
	// polls, so that the caller does not.
	waitTick = 100 * time.Millisecond
	// waitProgressEvery is how often a wait reports progress.
	waitProgressEvery = time.Second
)

// WaitCondition is one condition of a wait.
type WaitCondition struct {
	// Kind says what to wait for.
	Kind WaitKind `json:"kind"`
	// Target is the session (or, through a [WaitSource], job) whose output
	// or exit is watched; unused for WaitPort.
	Target string `json:"target,omitempty" jsonschema:"sessionId or job id (output, exit, input, screen)."`
	// Pattern is WaitOutput's regular expression (Go RE2 syntax), or
	// WaitScreen's, optional there.
	Pattern string `json:"pattern,omitempty" jsonschema:"Regular expression (RE2) a line must match (output; optional for screen)."`
	// FromLine, for WaitOutput, is the first global line number searched.
	// Nil: for a session, the first line the owner has not been given
	// (output printed since its last send, tail or wait counts); for a
	// job, the line being written when the wait starts. Pass an earlier
	// number to catch a line already shown.
	FromLine *int64 `json:"fromLine,omitempty" jsonschema:"Search from this line number, not only unseen output (output)."`
	// Port is WaitPort's TCP port (1-65535).
	Port int `json:"port,omitempty" jsonschema:"TCP port on this host (port)."`
}

// WaitRequest is a bounded wait for the first of several conditions.
type WaitRequest struct {
	// Conditions are watched together; the first that holds ends the
	// wait (1 to MaxWaitConditions, or none with Target).
	Conditions []WaitCondition
	// Target, when Conditions is empty, is a session or job whose program
	// is waited for until it exits or waits for input (the latter where
	// its backend can tell: see [WaitInput]): the wait for "until it is
	// done with this". Condition then indexes those two, exit first.
	Target string
	// Timeout bounds the wait (0: DefaultWaitTime; at most
	// Options.MaxTimeout).
	Timeout time.Duration
	// Progress, if set, is called about once a second while the wait
	// runs.
	Progress func(WaitProgress)
}

// WaitProgress reports a running wait.
type WaitProgress struct {
	// Elapsed is the time waited so far.
	Elapsed time.Duration
	// NewLines counts the new output lines seen across the watched
	// targets.
	NewLines int64
	// LastLine is the newest complete line seen, if any.
	LastLine string
}

// WaitResult says how a wait ended.
type WaitResult struct {
	// Fired reports that a condition held; false means the wait timed
	// out.
	Fired bool `json:"fired"`
	// Condition is the index of the condition that fired (-1 if none).
	Condition int `json:"condition"`
	// Kind and Target repeat the condition that fired.
	Kind   WaitKind `json:"kind,omitempty"`
	Target string   `json:"target,omitempty"`
	// Port is the port that accepted (WaitPort).
	Port int `json:"port,omitempty"`
	// Line is the matching line and LineNumber its global line number
	// (WaitOutput): pty_read or bg_read page on from there.
	Line       string `json:"line,omitempty"`
	LineNumber *int64 `json:"lineNumber,omitempty"`
	// Row is, for WaitScreen, the screen row (0 at the top) that changed
	// or matched; Line then holds its text.
	Row *int `json:"row,omitempty"`
	// Status is the target's status when the wait ended (WaitOutput,
	// WaitExit).
	Status *core.Status `json:"status,omitempty"`
	// InputHidden reports, for WaitInput on a session, that the program
	// reads a secret (a password prompt, a password dialog: see
	// [core.Service.SecretPrompt]), so what is typed is not shown.
	InputHidden bool `json:"inputHidden,omitempty"`
	// Output is, when an output, input or exit condition on one of the
	// owner's sessions fired, what that session printed that the owner
	// had not been given yet (as [Sessions.Tail] returns it: the matching
	// line, the question, the last words); the owner's tail position
	// moves past it. Skipped counts the older lines left out of it.
	Output  string `json:"output,omitempty"`
	Skipped int64  `json:"skipped,omitempty"`
	// WaitedMs is how long the wait took.
	WaitedMs int64 `json:"waitedMs"`
}

// WaitWatcher is one watched session or job, as a [WaitSource] serves it.
type WaitWatcher interface {
	// Page returns lines from global line number start on, or the newest
	// line when start is negative.
	Page(start int64) (core.PageResult, error)
	// Status returns the program's status.
	Status() (core.Status, error)
}

// WaitInputWatcher is a WaitWatcher that can tell when its program waits
// for input; ok is false when it cannot tell.
type WaitInputWatcher interface {
	WaitingForInput() (waiting, ok bool, err error)
}

// inputProber is the seam's optional foreground probe (*core.Service).
type inputProber interface {
	WaitingForInput(owner *core.Owner, id core.SessionID) (waiting, ok bool, err error)
}

// secretPrompter is the seam's optional test of a secret prompt
// (*core.Service): nil when the terminal reads a secret.
type secretPrompter interface {
	SecretPrompt(owner *core.Owner, id core.SessionID) error
}

// WaitSource lets a wait watch targets that are not the facade's own
// sessions (a job manager's jobs). Watch returns ok false for an id it
// does not know.
type WaitSource interface {
	Watch(owner *core.Owner, id string) (w WaitWatcher, ok bool, err error)
}

// sessionWatcher watches one of the facade's sessions.
type sessionWatcher struct {
	s     *Sessions
	owner *core.Owner
	id    core.SessionID
}

func (w sessionWatcher) Page(start int64) (core.PageResult, error) {
	if start < 0 {
		return w.s.t.Read(w.owner, w.id, core.PageRequest{Newest: true, Count: 1})
	}
	return w.s.t.Read(w.owner, w.id, core.PageRequest{Start: start, Count: 1000})
}

// unseenStart is the first line of the session's output the owner has not
// been shown: where an output condition starts searching.
func (w sessionWatcher) unseenStart() (int64, error) {
	info, err := w.s.t.Info(w.owner, w.id)
	return info.TailLine, err
}

func (w sessionWatcher) Status() (core.Status, error) {
	info, err := w.s.t.Info(w.owner, w.id)
	return info.Status, err
}

// readsSecret reports whether the session's terminal reads a secret now
// (a password prompt, a password dialog), when the seam can tell.
func (w sessionWatcher) readsSecret() bool {
	p, ok := w.s.t.(secretPrompter)
	return ok && p.SecretPrompt(w.owner, w.id) == nil
}

func (w sessionWatcher) WaitingForInput() (bool, bool, error) {
	p, ok := w.s.t.(inputProber)
	if !ok {
		return false, false, nil
	}
	return p.WaitingForInput(w.owner, w.id)
}

// Watch is one condition being watched: what [Sessions.Wait] checks for
// each of its conditions, and what a caller that runs a wait of its own
// (bg_launch's readiness) checks with [NewWatch] and [Watch.Check].
type Watch struct {
	cond WaitCondition
	w    WaitWatcher
	re   *regexp.Regexp
	next int64
	// WaitScreen: the peeker, the owner and the rows at the start.
	peek  ScreenPeeker
	owner *core.Owner
	rows  []string
}

// NewWatch validates condition c (INVALID_ARGUMENT naming its field) and
// starts watching it on w, the session or job it names (nil for
// WaitPort): an output condition counts output from c.FromLine on, or
// from the line being written now. WaitScreen needs [Sessions.Wait].
func NewWatch(c WaitCondition, w WaitWatcher) (*Watch, error) {
	return newWatch(c, func(name string) string { return name }, nil, func() (WaitWatcher, error) { return w, nil })
}

// Check tests the condition once: ok reports that it holds, and res says
// how (Fired, Condition and WaitedMs are left to the caller).
func (w *Watch) Check(ctx context.Context) (res WaitResult, ok bool, err error) {
	return w.check(ctx, &WaitProgress{})
}

// Wait blocks until the first of req.Conditions holds, req.Timeout passes
// (Fired false, no error) or ctx ends (CANCELLED). Targets are the
// owner's sessions, or ids one of sources knows (its jobs); a target that
// is neither is NO_SESSION, another owner's FOREIGN_SESSION. The server
// checks the conditions every 100 ms, so the caller need not poll. When an
// output, input or exit condition on one of the owner's sessions fires,
// the result's Output is that session's unseen output and the owner's tail
// moves past it (see [WaitResult.Output]). Bad input is INVALID_ARGUMENT
// naming the field.
func (s *Sessions) Wait(ctx context.Context, owner *core.Owner, req WaitRequest, sources ...WaitSource) (WaitResult, error) {
	const op = "wait"
	if owner == nil {
		return WaitResult{}, invalid(op, "", "owner", "is nil")
	}
	if err := ctx.Err(); err != nil {
		return WaitResult{}, cancelled(op, "", err)
	}
	if len(req.Conditions) == 0 && req.Target != "" {
		conds, err := s.doneConditions(owner, req.Target, sources)
		if err != nil {
			return WaitResult{}, core.WithOp(err, op)
		}
		req.Conditions = conds
	}
	switch {
	case len(req.Conditions) == 0:
		return WaitResult{}, invalid(op, "", "conditions", "is empty: name at least one, or only the session or job to wait until its program exits or wants input")
	case len(req.Conditions) > MaxWaitConditions:
		return WaitResult{}, invalid(op, "", "conditions", "%d exceeds the limit of %d", len(req.Conditions), MaxWaitConditions)
	case req.Timeout < 0:
		return WaitResult{}, invalid(op, "", "timeout", "must not be negative")
	case req.Timeout > s.opts.MaxTimeout:
		return WaitResult{}, invalid(op, "", "timeout", "%s exceeds the maximum of %s", req.Timeout, s.opts.MaxTimeout)
	}
	timeout := req.Timeout
	if timeout == 0 {
		timeout = min(DefaultWaitTime, s.opts.MaxTimeout)
	}
	ws := make([]*Watch, len(req.Conditions))
	for i, c := range req.Conditions {
		w, err := s.watch(owner, i, c, sources)
		if err != nil {
			return WaitResult{}, core.WithOp(err, op)
		}
		ws[i] = w
	}
	start := time.Now()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(waitTick)
	defer tick.Stop()
	var prog WaitProgress
	lastProgress := start
	for {
		for i, w := range ws {
			res, ok, err := w.check(ctx, &prog)
			if err != nil {
				return WaitResult{}, core.WithOp(err, op)
			}
			if ok {
				res.Fired, res.Condition, res.Kind = true, i, w.cond.Kind
				res.WaitedMs = time.Since(start).Milliseconds()
				s.withOutput(&res, w)
				return res, nil
			}
		}
		if req.Progress != nil && time.Since(lastProgress) >= waitProgressEvery {
			lastProgress = time.Now()
			prog.Elapsed = time.Since(start)
			req.Progress(prog)
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			return WaitResult{Condition: -1, WaitedMs: time.Since(start).Milliseconds()}, nil
		case <-ctx.Done():
			return WaitResult{}, cancelled(op, "", ctx.Err())
		}
	}
}

// withOutput gives res the output the owner has not seen of the session
// whose condition fired, for the conditions that are about its output
// (output, input, exit): the model sees the line, the question or the last
// words in context, and a later tail does not return them again. A screen
// condition leaves the tail alone: the screen, not the stream, shows a
// full-screen program.
func (s *Sessions) withOutput(res *WaitResult, w *Watch) {
	sw, ok := w.w.(sessionWatcher)
	if !ok || w.cond.Kind == WaitScreen || w.cond.Kind == WaitPort {
		return
	}
	d, err := s.consume(sw.owner, sw.id, s.opts.TailLines)
	if err != nil {
		return // the session ended meanwhile: the condition's own fields stand
	}
	res.Output, res.Skipped = d.Text, d.Skipped
}

// portAccepts reports whether TCP port on this host (localhost, IPv4 or
// IPv6) accepts a connection within timeout: the port check of every
// wait (pty_wait's port condition, bg_launch's readiness through
// [NewWatch]).
func portAccepts(ctx context.Context, port int, timeout time.Duration) bool {
	d := net.Dialer{Timeout: timeout}
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort("localhost", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// watch validates condition i and resolves its target.
func (s *Sessions) watch(owner *core.Owner, i int, c WaitCondition, sources []WaitSource) (*Watch, error) {
	field := func(name string) string { return "conditions[" + strconv.Itoa(i) + "]." + name }
	return newWatch(c, field, func(w *Watch) (*Watch, error) { return s.watchScreen(owner, w, field, sources) },
		func() (WaitWatcher, error) { return s.resolve(owner, c.Target, sources) })
}

// doneConditions are the conditions of a wait that names only target:
// its program exits, or waits for input where the backend can tell.
func (s *Sessions) doneConditions(owner *core.Owner, target string, sources []WaitSource) ([]WaitCondition, error) {
	w, err := s.resolve(owner, target, sources)
	if err != nil {
		return nil, err
	}
	conds := []WaitCondition{{Kind: WaitExit, Target: target}}
	if iw, ok := w.(WaitInputWatcher); ok {
		if _, tells, _ := iw.WaitingForInput(); tells {
			conds = append(conds, WaitCondition{Kind: WaitInput, Target: target})
		}
	}
	return conds, nil
}

// resolve returns the watcher of target: a source's job, or one of
// owner's sessions.
func (s *Sessions) resolve(owner *core.Owner, target string, sources []WaitSource) (WaitWatcher, error) {
	for _, src := range sources {
		if ww, ok, err := src.Watch(owner, target); err != nil || ok {
			return ww, err
		}
	}
	sw := sessionWatcher{s: s, owner: owner, id: core.SessionID(target)}
	_, err := sw.Status()
	return sw, err
}

// CompileWaitPattern checks and compiles a wait pattern (Go RE2 syntax, at
// most MaxWaitPattern bytes, not empty when required; an empty optional one
// gives nil). Errors are INVALID_ARGUMENT naming field, for every caller.
func CompileWaitPattern(field, p string, required bool) (*regexp.Regexp, error) {
	switch {
	case required && (p == "" || len(p) > MaxWaitPattern):
		return nil, invalid("", "", field, "must be 1 to %d bytes", MaxWaitPattern)
	case len(p) > MaxWaitPattern:
		return nil, invalid("", "", field, "must be at most %d bytes", MaxWaitPattern)
	}
	re, err := pattern.Compile(p, false)
	if err != nil {
		return nil, invalid("", "", field, "%v", err)
	}
	return re, nil
}

// newWatch validates condition c, naming its fields with field, and
// starts watching it on the watcher resolve returns; screen completes a
// WaitScreen condition.
func newWatch(c WaitCondition, field func(string) string, screen func(*Watch) (*Watch, error), resolve func() (WaitWatcher, error)) (*Watch, error) {
	w := &Watch{cond: c}
	switch c.Kind {
	case WaitPort:
		if c.Port < 1 || c.Port > 65535 {
			return nil, invalid("", "", field("port"), "%d is not a TCP port (1-65535)", c.Port)
		}
		return w, nil
	case WaitOutput:
		var err error
		if w.re, err = CompileWaitPattern(field("pattern"), c.Pattern, true); err != nil {
			return nil, err
		}
	case WaitScreen:
		var err error
		if w.re, err = CompileWaitPattern(field("pattern"), c.Pattern, false); err != nil {
			return nil, err
		}
		if screen == nil {
			return nil, invalid("", "", field("kind"), "screen conditions are watched by Sessions.Wait")
		}
		return screen(w)
	case WaitExit, WaitInput:
	default:
		return nil, invalid("", "", field("kind"), "%q is not one of output, port, exit, input, screen", c.Kind)
	}
	if c.Target == "" {
		return nil, invalid("", "", field("target"), "is empty: name a session or job id")
	}
	var err error
	if w.w, err = resolve(); err != nil {
		return nil, err
	}
	if c.Kind == WaitInput {
		iw, ok := w.w.(WaitInputWatcher)
		if ok {
			_, ok, _ = iw.WaitingForInput()
		}
		if !ok {
			return nil, invalid("", "", field("kind"), "%s cannot tell when its program waits for input: wait for its output instead", c.Target)
		}
	}
	if c.Kind == WaitOutput {
		if c.FromLine != nil {
			if *c.FromLine < 0 {
				return nil, invalid("", "", field("fromLine"), "must not be negative")
			}
			w.next = *c.FromLine
		} else if sw, ok := w.w.(sessionWatcher); ok {
			// Output printed since the owner's last look counts: a model
			// whose send returned at its timeout waits for a line that
			// may have come while it thought.
			next, err := sw.unseenStart()
			if err != nil {
				return nil, err
			}
			w.next = next
		} else {
			p, err := w.w.Page(-1)
			if err != nil {
				return nil, err
			}
			w.next = p.End
			if p.Partial && p.End > 0 {
				w.next = p.End - 1 // the line being written counts as new
			}
		}
	}
	return w, nil
}

// check tests one condition once.
func (w *Watch) check(ctx context.Context, prog *WaitProgress) (WaitResult, bool, error) {
	switch w.cond.Kind {
	case WaitPort:
		if !portAccepts(ctx, w.cond.Port, 200*time.Millisecond) {
			return WaitResult{}, false, nil
		}
		return WaitResult{Port: w.cond.Port}, true, nil
	case WaitExit:
		st, err := w.w.Status()
		if err != nil {
			return WaitResult{}, false, err
		}
		if st.Kind == core.StatusExited {
			return WaitResult{Target: w.cond.Target, Status: &st}, true, nil
		}
		return WaitResult{}, false, nil
	case WaitScreen:
		return w.checkScreen(ctx)
	case WaitInput:
		waiting, _, err := w.w.(WaitInputWatcher).WaitingForInput()
		if err != nil || !waiting {
			return WaitResult{}, false, err
		}
		// The question is the newest line, usually an unfinished one.
		res := WaitResult{Target: w.cond.Target}
		if p, err := w.w.Page(-1); err == nil && len(p.Lines) > 0 {
			n := p.Start + int64(len(p.Lines)) - 1
			res.Line, res.LineNumber = p.Lines[len(p.Lines)-1], &n
		}
		if st, err := w.w.Status(); err == nil {
			res.Status = &st
		}
		if sw, ok := w.w.(sessionWatcher); ok {
			res.InputHidden = sw.readsSecret()
		}
		return res, true, nil
	}
	// WaitOutput: scan what is new; an unfinished last line is matched but
	// scanned again next time, as it may still grow.
	for {
		p, err := w.w.Page(w.next)
		if err != nil {
			return WaitResult{}, false, err
		}
		for j, line := range p.Lines {
			n := p.Start + int64(j)
			last := p.Partial && j == len(p.Lines)-1
			if w.re.MatchString(line) {
				st, _ := w.w.Status()
				return WaitResult{Target: w.cond.Target, Line: line, LineNumber: &n, Status: &st}, true, nil
			}
			if !last && n >= w.next {
				prog.NewLines++
				prog.LastLine = line
			}
		}
		next := p.End
		if p.Partial && next > p.Start {
			next--
		}
		if next <= w.next {
			if p.Start > w.next { // lines were dropped before they were read
				w.next = p.Start
			}
			return WaitResult{}, false, nil
		}
		w.next = next
	}
}

// String renders a condition for messages.
func (c WaitCondition) String() string {
	switch c.Kind {
	case WaitPort:
		return fmt.Sprintf("port %d", c.Port)
	case WaitOutput:
		return fmt.Sprintf("output of %s matching %q", c.Target, c.Pattern)
	case WaitInput:
		return fmt.Sprintf("%s waits for input", c.Target)
	case WaitScreen:
		if c.Pattern != "" {
			return fmt.Sprintf("screen of %s showing %q", c.Target, c.Pattern)
		}
		return fmt.Sprintf("screen of %s changed", c.Target)
	}
	return fmt.Sprintf("%s of %s", c.Kind, c.Target)
}
