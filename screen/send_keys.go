package screen

import (
	"context"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/screen/keys"
)

// KeysRequest is text and named keys to type into a session as one send.
type KeysRequest struct {
	// Text is typed first, byte-exact (no Enter is added).
	Text string
	// Keys are key names (see package keys), sent after Text. Cursor keys
	// follow the application-cursor mode the program turned on.
	Keys []string
	// Timeout overrides the service's absolute send deadline.
	Timeout time.Duration
	// QuietWindow overrides the service's silence window.
	QuietWindow time.Duration
	// ChangedOnly makes the returned screen hold only the changed rows.
	ChangedOnly bool
	// Paced writes one key at a time (each character of Text is a key),
	// each once the send of the one before settled: the program read it.
	// For programs that discard input typed ahead of a prompt.
	Paced bool
}

// KeysResult is how a keys send settled and the screen after it.
type KeysResult struct {
	// Send is the settled send (wait reason, status, output since the
	// write).
	Send core.SendResult
	// Screen is the snapshot taken once the send settled and the screen
	// stopped changing. When the keys made a full-screen program leave the
	// alternate screen, it holds only the rows that are new on the normal
	// screen (ChangedOnly), and LeftFullScreen is set.
	Screen Snapshot
	// LeftFullScreen reports that the keys made the program leave the
	// alternate screen.
	LeftFullScreen bool
	// Discarded counts the bytes of the keys the program never read:
	// they vanished from the terminal's input unread (the program
	// flushed its input, as top does when it opens a prompt). 0 when none
	// did or the backend cannot tell (see core.InputRead).
	Discarded int
}

// SendKeys types req.Text and then req.Keys into the session as one send
// (like a send with submit off), waits until it settles like any send
// (stdin_read once a full-screen program waits for the next key), then
// until the screen stopped changing (see state.awaitRedraw), and returns
// how it settled with a snapshot of the screen. An unknown key
// name, or nothing to send, is INVALID_ARGUMENT naming the key; a send
// already live is SEND_ACTIVE.
func (m *Manager) SendKeys(ctx context.Context, owner *core.Owner, id core.SessionID, req KeysRequest) (KeysResult, error) {
	svc, st, err := m.lookup("keys", owner, id)
	if err != nil {
		return KeysResult{}, err
	}
	data, err := keys.Encode(req.Keys, false)
	if err != nil {
		return KeysResult{}, withSession(err, id)
	}
	if keys.DependsOnCursorMode(req.Keys) {
		app, err := st.appCursor(ctx)
		if err != nil {
			return KeysResult{}, err
		}
		if app {
			if data, err = keys.Encode(req.Keys, true); err != nil {
				return KeysResult{}, withSession(err, id)
			}
		}
	}
	data = append([]byte(req.Text), data...)
	if len(data) == 0 {
		return KeysResult{}, &core.Error{Code: core.CodeInvalidArgument, Op: "keys", Session: id, Msg: "nothing to send: give text or keys"}
	}
	before := st.mode(ctx)
	start := time.Now()
	op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: string(data), Timeout: req.Timeout, QuietWindow: req.QuietWindow, NoSubmit: true})
	if err != nil {
		return KeysResult{}, err
	}
	res, err := op.Wait(ctx)
	if err != nil {
		return KeysResult{}, err
	}
	switch res.WaitReason {
	case core.WaitSessionExit, core.WaitTimeout, core.WaitCancelled:
	default:
		var escapeUntil time.Time
		if data[len(data)-1] == 0x1b && m.opts.EscapeWait > 0 {
			// A bare Escape last: the program waits to tell the key
			// from an escape sequence before it reacts and redraws.
			escapeUntil = start.Add(m.opts.EscapeWait)
		}
		st.awaitRedraw(ctx, escapeUntil, time.Now().Add(redrawMax))
	}
	m.shown(owner, id)
	snap, err := st.snapshot(ctx, SnapshotOptions{ChangedOnly: req.ChangedOnly})
	if err != nil {
		return KeysResult{}, err
	}
	out := KeysResult{Send: res, Screen: snap}
	if before.alt && !snap.AltScreen {
		// The program left the alternate screen: what is new on the
		// normal screen, not the rows the model read before.
		rows, cur := st.normalScreen()
		if rows != nil {
			out.Screen = newOnNormal(snap, rows, cur)
			out.LeftFullScreen = true
		}
	}
	return out, nil
}

// withSession names the session in a key error.
func withSession(err error, id core.SessionID) error {
	if e, ok := err.(*core.Error); ok && e.Session == "" {
		c := *e
		c.Session = id
		return &c
	}
	return err
}
