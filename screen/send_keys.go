package screen

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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
	// Timeout overrides the service's absolute send deadline (for a
	// full-screen program, Options.FullScreenKeysTimeout when zero).
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
	// LineMode reports that no full-screen program held the terminal,
	// before the keys or after them (a shell's Tab completion, Ctrl-D to
	// cat): Send.Delta, what they printed, says all a screen would. With
	// FollowTails it is cut from the caller's tail, which moves past it,
	// as a facade send's output is.
	LineMode bool
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
// how it settled with a snapshot of the screen. With req.Paced each key
// is its own send, written once the one before settled. Where the backend
// counts what the program reads (core.Prober.InputRead), bytes that left
// the terminal's input unread are counted in Discarded. An unknown key
// name, or nothing to send, is INVALID_ARGUMENT naming the key; a send
// already live is SEND_ACTIVE.
func (m *Manager) SendKeys(ctx context.Context, owner *core.Owner, id core.SessionID, req KeysRequest) (KeysResult, error) {
	svc, st, err := m.lookup("keys", owner, id)
	if err != nil {
		return KeysResult{}, err
	}
	app := false
	if keys.DependsOnCursorMode(req.Keys) {
		if app, err = st.appCursor(ctx); err != nil {
			return KeysResult{}, err
		}
	}
	data, err := keys.Encode(req.Keys, app)
	if err != nil {
		return KeysResult{}, withSession(err, id)
	}
	data = append([]byte(req.Text), data...)
	if len(data) == 0 {
		return KeysResult{}, &core.Error{Code: core.CodeInvalidArgument, Op: "keys", Session: id, Msg: "nothing to send: give text or keys"}
	}
	pieces := [][]byte{data}
	if req.Paced {
		if pieces, err = pacedPieces(req.Text, req.Keys, app); err != nil {
			return KeysResult{}, withSession(err, id)
		}
	}
	before := st.mode(ctx)
	if req.Timeout == 0 && before.known && before.full() && m.opts.FullScreenKeysTimeout > 0 {
		req.Timeout = m.opts.FullScreenKeysTimeout
	}
	// In a line-mode program the keys' output is what the caller is
	// shown: each send cuts it from the caller's tail, as the facade's
	// sends do, and moves the tail past it.
	var tail *core.TailRequest
	if tails := m.followed(); tails != nil && before.known && !before.full() {
		tr := tails.TailBounds()
		tail = &tr
	}
	var res core.SendResult
	var delta strings.Builder
	truncated, discarded := false, 0
	for i, p := range pieces {
		n, r, err := m.sendPiece(ctx, svc, st, owner, id, p, req, tail, i == len(pieces)-1)
		if err != nil {
			return KeysResult{}, err
		}
		res, discarded = r, discarded+n
		delta.WriteString(r.Delta)
		truncated = truncated || r.Truncated
		if !settled(res.WaitReason) {
			break
		}
	}
	if len(pieces) > 1 {
		res.Delta, res.Truncated = delta.String(), truncated
	}
	after := st.mode(ctx)
	lineMode := before.known && after.known && !before.full() && !after.full()
	if !lineMode {
		// The screen is what the caller is shown; in line mode the
		// send's output is, and the send moved the tail past it itself.
		m.shown(owner, id)
	}
	prev := st.lastLook()
	snap, err := st.snapshot(ctx, SnapshotOptions{ChangedOnly: req.ChangedOnly, peek: lineMode})
	if err != nil {
		return KeysResult{}, err
	}
	out := KeysResult{Send: res, Screen: snap, Discarded: discarded, LineMode: lineMode && !snap.AltScreen}
	if before.drawn && !before.alt && !snap.AltScreen && res.WaitReason == core.WaitPrompt {
		// A program that drew on the normal screen (top) quit and the
		// shell's prompt is back: its last frame stays, scrolled; what is
		// new is below the rows the model saw last.
		if s, ok := newBelow(snap, st.lastLook(), prev); ok {
			out.Screen = s
			out.LeftFullScreen = true
		}
	}
	if before.alt && !snap.AltScreen {
		// The program left the alternate screen: what is new on the
		// normal screen, not the rows the model read before.
		rows, cur := st.normalScreen()
		if rows != nil {
			whole := snap
			if whole.ChangedOnly { // the rows changed since the program's screen
				whole.Rows, whole.ChangedOnly = st.lastLook(), false
			}
			out.Screen = newOnNormal(whole, rows, cur)
			out.LeftFullScreen = true
		}
	}
	return out, nil
}

// settled reports whether a send settled with the program still there to
// read more.
func settled(r core.WaitReason) bool {
	switch r {
	case core.WaitSessionExit, core.WaitTimeout, core.WaitCancelled:
		return false
	}
	return true
}

// sendPiece writes data as one send (its output cut from the caller's tail
// when tail is set) and waits for it to settle and, when it settled, for
// the redraw. It returns the bytes of data that left the
// terminal's input unread, when the backend can count them.
func (m *Manager) sendPiece(ctx context.Context, svc core.Terminals, st *state, owner *core.Owner, id core.SessionID, data []byte, req KeysRequest, tail *core.TailRequest, last bool) (int, core.SendResult, error) {
	counter, canCount := svc.(inputReadCounter)
	var base core.InputRead
	if canCount {
		var err error
		if base, err = counter.InputRead(owner, id); err != nil {
			canCount = false
		}
	}
	start := time.Now()
	op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: string(data), Timeout: req.Timeout, QuietWindow: req.QuietWindow, NoSubmit: true, Tail: tail})
	if err != nil {
		return 0, core.SendResult{}, err
	}
	res, err := op.Wait(ctx)
	if err != nil {
		return 0, core.SendResult{}, err
	}
	if !settled(res.WaitReason) {
		return 0, res, nil
	}
	discarded := 0
	if canCount {
		if now, err := counter.InputRead(owner, id); err == nil {
			discarded = now.Discarded(base, data)
		}
	}
	var escapeUntil time.Time
	if data[len(data)-1] == 0x1b && m.opts.EscapeWait > 0 {
		// A bare Escape last: the program waits to tell the key from an
		// escape sequence before it reacts and redraws (and a paced key
		// sent sooner would join it as Alt).
		escapeUntil = start.Add(m.opts.EscapeWait)
	} else if !last {
		return discarded, res, nil
	}
	st.awaitRedraw(ctx, escapeUntil, time.Now().Add(redrawMax))
	return discarded, res, nil
}

// inputReadCounter is the part of *core.Service that counts what a
// session's program read of its terminal.
type inputReadCounter interface {
	InputRead(owner *core.Owner, id core.SessionID) (core.InputRead, error)
}

// pacedPieces splits text into its characters (a byte that is not UTF-8
// is one) and encodes each key on its own.
func pacedPieces(text string, names []string, app bool) ([][]byte, error) {
	if n := utf8.RuneCountInString(text) + len(names); n > MaxPacedKeys {
		return nil, &core.Error{Code: core.CodeInvalidArgument, Op: "keys", Msg: "paced: " + strconv.Itoa(n) +
			" keys exceed the limit of " + strconv.Itoa(MaxPacedKeys) + " paced keys: send longer text unpaced, or in several calls"}
	}
	var out [][]byte
	for i := 0; i < len(text); {
		_, n := utf8.DecodeRuneInString(text[i:])
		out = append(out, []byte(text[i:i+n]))
		i += n
	}
	for _, k := range names {
		b, err := keys.Encode([]string{k}, app)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// MaxPacedKeys bounds the keys of one paced SendKeys: each is a send of
// its own that waits for the program to read it.
const MaxPacedKeys = 256

// withSession names the session in a key error.
func withSession(err error, id core.SessionID) error {
	if e, ok := err.(*core.Error); ok && e.Session == "" {
		c := *e
		c.Session = id
		return &c
	}
	return err
}
