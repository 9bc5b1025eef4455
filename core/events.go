package core

import "time"

// EventKind names what an [Event] reports.
type EventKind string

// Event kinds.
const (
	// EventInput: bytes written to the terminal by the owner (a send or
	// a write) or by a person in control (Person set).
	EventInput EventKind = "input"
	// EventResize: the terminal took a new size.
	EventResize EventKind = "resize"
	// EventSettled: a send settled, for WaitReason.
	EventSettled EventKind = "settled"
	// EventTakeOver: Person took control of the session.
	EventTakeOver EventKind = "take_over"
	// EventHandBack: Person handed the session back.
	EventHandBack EventKind = "hand_back"
)

// Event is something that happened to a session, for observers that
// follow every session (a recorder, a watch page) through Options.OnEvent.
// Offset places it in the session's raw output: the bytes its taps had
// been fed when it happened, so an observer reading a tap can put it
// exactly between two chunks of output.
type Event struct {
	Kind    EventKind
	Session SessionID
	Owner   *Owner
	Time    time.Time
	Offset  uint64
	// Data is the input written (EventInput); observers must not keep or
	// change it beyond the call. It is nil when Secret.
	Data []byte
	// Secret reports input written while the terminal read a hidden
	// line (a password, EchoHidden): its bytes are withheld, SecretLen
	// counts them.
	Secret    bool
	SecretLen int
	// Echo is the terminal's echo mode when the input was written
	// (EventInput). With EchoByProgram and EchoUnknown the terminal's
	// modes do not tell whether the input was shown: an observer that
	// keeps input must judge it by the output that follows (core/record
	// does).
	Echo EchoMode
	// Person is who typed (EventInput by a person) or who took or handed
	// back control.
	Person string
	// Size is the new size (EventResize).
	Size Size
	// WaitReason is why a send returned (EventSettled).
	WaitReason WaitReason
}

// emitLocked hands ev, stamped with the session, its owner, the time and
// the output offset, to Options.OnEvent. sess.mu is held: the observer sees
// the event before any output that follows it reaches a tap.
func (sess *session) emitLocked(ev Event) {
	hook := sess.svc.opts.OnEvent
	if hook == nil {
		return
	}
	ev.Session, ev.Owner, ev.Time, ev.Offset = sess.id, sess.owner, time.Now(), sess.ingested
	hook(ev)
}

// inputEvent describes input written to the session in echo mode m;
// input written while the terminal read a hidden line (a password) is
// reported without its bytes.
func (sess *session) inputEvent(data []byte, m EchoMode, person string) Event {
	ev := Event{Kind: EventInput, Person: person, Echo: m}
	if m == EchoHidden {
		ev.Secret, ev.SecretLen = true, len(data)
		return ev
	}
	ev.Data = data
	return ev
}
