package core

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// session is one published (or publishing) terminal session.
type session struct {
	svc     *Service
	id      SessionID
	owner   *Owner
	name    string
	typ     string
	command []string
	title   string // SpawnRequest.Title
	record  bool
	created time.Time
	be      BackendSession
	probe   Prober // ProberOf(be)
	try     TryIO  // nil when the backend has no fast path
	// watchesInput: probe answers the settle question (Facts.WatchesInput).
	watchesInput bool
	relay        bool // SpawnRequest.Relay
	enter        []byte
	limits       ScrollbackLimits
	// promptMarked: the backend runs a shell that prints OSC 133;B.
	promptMarked bool

	// replyOwed is when a tap's reader last said it owes the program an
	// answer to a terminal query (Tap.ExpectReply), in Unix nanoseconds;
	// 0 once it wrote one (Tap.Reply).
	replyOwed atomic.Int64

	readerDone chan struct{} // closed when the read loop has finished
	exitedCh   chan struct{} // closed once status is exited (output drained)

	mu         sync.Mutex
	buf        *scrollback.Buffer
	changed    chan struct{} // closed on the next change; nil until a waiter asks (changedLocked)
	lastOutput time.Time
	ingested   uint64 // raw bytes taken in from the backend's Read
	status     Status
	size       Size
	send       *operation  // the live send, if any
	tail       Cursor      // the owner's tail position (tail.go)
	queue      []*sendTurn // queued sends waiting their turn (sendturn.go)
	taps       []*Tap
	firstTap   *Tap // the WithTap tap, handed out by Spawn
	// atPrompt: the last send settled on the prompt marker, when the
	// output stood at atPromptOutput.
	atPrompt       bool
	atPromptOutput time.Time
	// lastSettle is why the last send settled (pastesLocked).
	lastSettle WaitReason
	// cmdLine is what keys left on a marked shell's command line.
	cmdLine commandLine
	// Input accounting for the prompt tier (promptgate.go): no D marker
	// with a line count <= inBound answers input not written yet (valid
	// when inBoundSet); running: the shell runs a command that took the
	// input written so far.
	inBound    int64
	inBoundSet bool
	running    bool
	// noted counts the line ends written and the interrupts counted at a
	// prompt, ever: an interrupt's raise adds what was noted after its
	// mark (interruptMark).
	noted int64
	// writing counts the writes noted and not yet returned by the
	// backend (their lines may not have reached the shell).
	writing int
	// control is the person in control (human.go), if any; handBack is
	// the note of a hand-back the next send result carries.
	control  *Control
	handBack *HandBackNote
	// redact hides the secrets typed with TypeSecret in the output
	// (redact.go); nil until the first.
	redact  *redactor
	closing *teardown // the teardown under way, if any
	closed  bool      // teardown finished
}

// teardown is one shared close attempt.
type teardown struct {
	done chan struct{}
	err  error
}

func newSession(svc *Service, owner *Owner, id SessionID, req SpawnRequest, be BackendSession, limits ScrollbackLimits) *session {
	sess := &session{
		svc:        svc,
		id:         id,
		owner:      owner,
		name:       req.Name,
		typ:        req.Type,
		command:    append([]string(nil), req.Command...),
		title:      req.Title,
		record:     req.Record,
		created:    time.Now(),
		be:         be,
		enter:      []byte("\r"),
		limits:     limits,
		readerDone: make(chan struct{}),
		exitedCh:   make(chan struct{}),
		buf:        scrollback.New(limits),
		status:     Running,
		size:       req.Size,
		relay:      req.Relay,
	}
	sess.lastOutput = sess.created
	sess.probe = ProberOf(be)
	sess.try, _ = be.(TryIO)
	facts := sess.probe.Facts()
	sess.watchesInput = facts.WatchesInput
	if facts.Enter != nil {
		sess.enter = append([]byte(nil), facts.Enter...)
	}
	if facts.PromptMarker {
		// The shell's first prompt counts no line read yet.
		sess.promptMarked, sess.inBoundSet = true, true
	}
	if hook := svc.opts.OnSpawn; hook != nil {
		t := newTap(sess)
		sess.taps = append(sess.taps, t)
		hook(sess.infoLocked(), owner, t)
	}
	if req.WithTap {
		sess.firstTap = newTap(sess)
		sess.taps = append(sess.taps, sess.firstTap)
	}
	go sess.readLoop()
	return sess
}

// notifyLocked wakes everyone waiting for a change. sess.mu is held.
func (sess *session) notifyLocked() {
	sess.broadcastChangeLocked()
	if op := sess.send; op != nil {
		op.kickNow()
	}
}

// changedLocked returns a channel closed at the session's next change.
// sess.mu is held.
func (sess *session) changedLocked() <-chan struct{} {
	if sess.changed == nil {
		sess.changed = make(chan struct{})
	}
	return sess.changed
}

// broadcastChangeLocked closes changedLocked's channel; output read
// while nobody waits costs nothing. sess.mu is held.
func (sess *session) broadcastChangeLocked() {
	if sess.changed != nil {
		close(sess.changed)
		sess.changed = nil
	}
}

// readLoop moves backend output into the scrollback and the taps until end
// of output, then records the exit status.
func (sess *session) readLoop() {
	defer close(sess.readerDone)
	buf := make([]byte, 32<<10)
	for {
		n, err := sess.be.Read(buf)
		if n > 0 {
			sess.ingest(buf[:n])
		}
		if err != nil {
			break
		}
	}
	sess.endRedaction()
	<-sess.be.Exited()
	st := sess.be.ExitStatus()
	if !st.Exited() {
		st = Status{Kind: StatusExited, ExitCode: -1, Reason: "exit status unknown"}
	}
	sess.mu.Lock()
	sess.status = st
	for _, t := range sess.taps {
		t.endLocked()
	}
	close(sess.exitedCh)
	sess.notifyLocked()
	sess.mu.Unlock()
	sess.svc.log.Debug("ptyseam: session exited", "session", sess.id, "status", st.String())
}

// ingest appends raw output: through the redactor when the session hides
// secrets.
func (sess *session) ingest(p []byte) {
	sess.mu.Lock()
	sess.lastOutput = time.Now()
	taken := uint64(len(p))
	if r := sess.redact; r != nil && len(r.secrets) > 0 {
		// Held output is not taken in yet: a send does not settle on a
		// read before that output shows.
		before := len(r.held)
		p = r.filter(p)
		taken = uint64(before + int(taken) - len(r.held))
		if len(r.held) > 0 {
			sess.scheduleFlushLocked()
		}
	}
	sess.ingested += taken
	op := sess.takeInLocked(p)
	sess.mu.Unlock()
	sess.tookIn(op)
}

// scheduleFlushLocked takes the redactor's held output in after
// redactHold, unless more output took it in first. sess.mu is held.
func (sess *session) scheduleFlushLocked() {
	r := sess.redact
	if r.flush == nil {
		r.flush = time.AfterFunc(redactHold, sess.flushHeld)
		return
	}
	r.flush.Reset(redactHold)
}

// flushHeld takes in the output the redactor held back: no more came to
// complete a secret.
func (sess *session) flushHeld() {
	sess.mu.Lock()
	if sess.redact == nil || len(sess.redact.held) == 0 {
		sess.mu.Unlock()
		return
	}
	sess.ingested += uint64(len(sess.redact.held)) // raw bytes
	p := sess.redact.takeHeld()
	op := sess.takeInLocked(p)
	sess.mu.Unlock()
	sess.tookIn(op)
}

// takeInLocked appends output to the scrollback and the taps and wakes
// who waits for it. It returns the send it settled, if any, for tookIn.
// sess.mu is held.
func (sess *session) takeInLocked(p []byte) *operation {
	if len(p) > 0 {
		sess.buf.Write(p)
		for _, t := range sess.taps {
			t.feedLocked(p)
		}
	}
	op := sess.settleInlineLocked()
	// Output alone does not wake a send that the read loop settles on
	// its prompt (see settleParams.op): its goroutine keeps to its timers.
	sess.broadcastChangeLocked()
	if live := sess.send; live != nil && live.inline == nil {
		live.kickNow()
	}
	return op
}

// tookIn finishes takeInLocked once sess.mu is released.
func (sess *session) tookIn(op *operation) {
	if op != nil {
		op.published()
		// The send's caller, just woken, runs on this loop's processor
		// before the loop reads again (a read that finds nothing, then
		// parking): the loop waits its turn on another one.
		runtime.Gosched()
		// The shell is at its prompt: its next send's baseline can be
		// read now, off that send's path.
		if sess.watchesInput {
			sess.probe.WarmBaseline()
		}
	}
}

func (sess *session) info() SessionInfo {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.infoLocked()
}

func (sess *session) infoLocked() SessionInfo {
	return SessionInfo{
		ID:          sess.id,
		Name:        sess.name,
		Type:        sess.typ,
		Command:     sess.command,
		Title:       sess.title,
		Record:      sess.record,
		PID:         sess.be.PID(),
		Status:      sess.status,
		Created:     sess.created,
		Size:        sess.size,
		TotalLines:  sess.buf.Total(),
		TailLine:    sess.tail.Line(),
		Prompts:     sess.buf.Marks().PromptEnds,
		QueuedSends: len(sess.queue),
	}
}

// usableLocked reports why the session cannot take a write or a signal.
func (sess *session) usableLocked(op string) error {
	switch {
	case sess.closing != nil || sess.closed:
		return newError(CodeSessionClosing, op, sess.id, "the session is closing")
	case sess.status.Exited():
		e := newError(CodeSessionExited, op, sess.id, "the session's program has exited ("+sess.status.String()+")")
		e.Err = sess.probe.ExitCause()
		return e
	}
	return nil
}

// pageLocked reads a page with the service's byte bound.
func (sess *session) pageLocked(req PageRequest) PageResult {
	return sess.buf.Page(req, sess.svc.opts.MaxResultBytes)
}
