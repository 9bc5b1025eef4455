package core

import (
	"context"
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// HumanPolicy says what a model's send does while a person is in control
// of its session (see [Service.TakeOver]).
type HumanPolicy int

const (
	// HumanRefuse refuses the send at once with HUMAN_IN_CONTROL.
	HumanRefuse HumanPolicy = iota
	// HumanWait holds the send until the person hands back, then runs
	// it; a send whose timeout or context ends first fails with
	// HUMAN_IN_CONTROL (timeout) or CANCELLED (context).
	HumanWait
)

// Control is a person's hold on one session, from [Service.TakeOver] to
// [Control.HandBack]. While it is held the owner's sends, writes and
// signals are refused (or, for sends under [HumanWait], held), and the
// person types through [Control.Write]. The session's output goes on as
// usual: taps, scrollback and the owner's tail cursors see it.
type Control struct {
	sess     *session
	person   string
	start    time.Time
	from     scrollback.Cursor // where the output stood when control began
	released chan struct{}     // closed at hand-back
}

// HandBackNote tells the owner, in the result of its first send after a
// hand-back, that a person was in control and what the terminal printed
// meanwhile.
// The JSON names are the tools' wire names (pty_send's handBack).
type HandBackNote struct {
	// Person names who was in control, as given to TakeOver.
	Person string `json:"person"`
	// Start and End bound the time the person was in control.
	Start time.Time `json:"-"`
	End   time.Time `json:"-"`
	// HeldMs is End - Start in milliseconds.
	HeldMs int64 `json:"heldMs"`
	// Output is the cleaned output printed while the person was in
	// control, bounded like a send's output (the newest part is kept).
	Output string `json:"output"`
	// Truncated reports that older parts of Output were dropped.
	Truncated bool `json:"truncated,omitempty"`
	// SkippedLines counts whole lines dropped from Output.
	SkippedLines int64 `json:"-"`
}

// TakeOver gives a person control of one of owner's sessions. It fails
// with HUMAN_IN_CONTROL when someone holds it already. A send live at the
// moment goes on settling by its usual rules (what the person types may
// end it); the owner's later sends wait or are refused per
// Options.HumanControl until [Control.HandBack].
func (s *Service) TakeOver(owner *Owner, id SessionID, person string) (*Control, error) {
	sess, err := s.lookup("take_over", owner, id)
	if err != nil {
		return nil, err
	}
	sess.mu.Lock()
	if err := sess.usableLocked("take_over"); err != nil {
		sess.mu.Unlock()
		return nil, err
	}
	if c := sess.control; c != nil {
		sess.mu.Unlock()
		return nil, newError(CodeHumanInControl, "take_over", id, personOr(c.person)+" is in control of this session already")
	}
	c := &Control{sess: sess, person: person, start: time.Now(), from: sess.buf.End(), released: make(chan struct{})}
	sess.control = c
	sess.emitLocked(Event{Kind: EventTakeOver, Person: person})
	sess.notifyLocked()
	sess.mu.Unlock()
	s.log.Info("ptyseam: a person took control of a session", "session", id, "person", person)
	return c, nil
}

// Controller returns the person in control of one of owner's sessions,
// or "" when nobody is.
func (s *Service) Controller(owner *Owner, id SessionID) (string, error) {
	sess, err := s.lookup("controller", owner, id)
	if err != nil {
		return "", err
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.control == nil {
		return "", nil
	}
	return sess.control.person, nil
}

// Person returns who holds this control.
func (c *Control) Person() string { return c.person }

// Session returns the id of the controlled session.
func (c *Control) Session() SessionID { return c.sess.id }

// Released is closed once the control was handed back.
func (c *Control) Released() <-chan struct{} { return c.released }

// Write types data into the session as the person: as is, at once, with
// no settling. It fails with HUMAN_IN_CONTROL after the hand-back and
// with the session's error once it closed.
func (c *Control) Write(ctx context.Context, data []byte) (int, error) {
	sess := c.sess
	if len(data) > sess.svc.opts.MaxSendBytes {
		return 0, newError(CodeInvalidArgument, "person_write", sess.id, "data exceeds the send limit of "+itoa(sess.svc.opts.MaxSendBytes)+" bytes")
	}
	// Read even without observers: a line typed into a hidden read goes
	// to the running command, not to the shell (noteInputLocked).
	echo := sess.echoMode()
	sess.mu.Lock()
	if err := sess.usableLocked("person_write"); err != nil {
		sess.mu.Unlock()
		return 0, err
	}
	if sess.control != c {
		sess.mu.Unlock()
		return 0, newError(CodeHumanInControl, "person_write", sess.id, "the control was handed back; take over again to type")
	}
	sess.noteInputLocked(data, echo != EchoHidden, false)
	sess.emitLocked(sess.inputEvent(data, echo, c.person))
	sess.mu.Unlock()
	n, err := sess.be.Write(ctx, data)
	sess.wrote()
	if err != nil {
		if ctx.Err() != nil {
			return n, cancelled("person_write", sess.id, ctx.Err())
		}
		return n, backendError("person_write", sess.id, err)
	}
	return n, nil
}

// HandBack returns control to the owner. The owner's next send result
// carries a [HandBackNote] with the output printed meanwhile. Calling it
// again does nothing; on a closed session it only releases the hold.
func (c *Control) HandBack() {
	sess := c.sess
	sess.mu.Lock()
	if sess.control != c {
		sess.mu.Unlock()
		return
	}
	sess.control = nil
	from := c.from
	d := sess.buf.Since(&from, MaxPageLinesLimit, sess.svc.opts.MaxResultBytes)
	end := time.Now()
	sess.handBack = &HandBackNote{Person: c.person, Start: c.start, End: end, HeldMs: end.Sub(c.start).Milliseconds(), Output: d.Text, Truncated: d.Truncated, SkippedLines: d.Skipped}
	sess.emitLocked(Event{Kind: EventHandBack, Person: c.person})
	close(c.released)
	sess.notifyLocked()
	sess.mu.Unlock()
	sess.svc.log.Info("ptyseam: a person handed a session back", "session", sess.id, "person", c.person)
}

// humanGateLocked decides whether the owner may write now. It returns nil
// when nobody is in control, else the hold to wait for (wait is true
// under HumanWait for a send) or the refusal. sess.mu is held.
func (sess *session) humanGateLocked(op string, mayWait bool) (*Control, error) {
	c := sess.control
	if c == nil {
		return nil, nil
	}
	if mayWait && sess.svc.opts.HumanControl == HumanWait {
		return c, nil
	}
	return nil, humanInControl(op, sess.id, c.person)
}

func humanInControl(op string, id SessionID, person string) error {
	return newError(CodeHumanInControl, op, id, personOr(person)+" is typing in this session; try again after they hand back")
}

// waitForHuman blocks a send until nobody is in control, the deadline
// passes (HUMAN_IN_CONTROL) or ctx ends (CANCELLED).
func (sess *session) waitForHuman(ctx context.Context, c *Control, deadline time.Time) error {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-c.released:
		return nil
	case <-t.C:
		return newError(CodeHumanInControl, "send", sess.id, personOr(c.person)+" was still in control when the send's timeout passed; try again after they hand back")
	case <-ctx.Done():
		return cancelled("send", sess.id, ctx.Err())
	}
}

// takeHandBackLocked returns and clears the note of a hand-back no send
// result has carried yet. sess.mu is held.
func (sess *session) takeHandBackLocked() *HandBackNote {
	n := sess.handBack
	sess.handBack = nil
	return n
}

// personOr names person in a message: as given, or "a person".
func personOr(person string) string {
	if person == "" {
		return "a person"
	}
	return person
}
