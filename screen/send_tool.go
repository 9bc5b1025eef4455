package screen

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// SendResult is pty_send's structured result once the screen tools serve
// it (see [FullScreenSend]): the facade's result, and the screen when the
// send left the terminal in a full-screen program.
type SendResult struct {
	ptysession.SendResult
	// Screen is set when the send left the terminal on the alternate
	// screen (vim, less, top): what the terminal shows, as pty_screen
	// returns it (only the changed rows where that is shorter). Delta is
	// then empty: the program's drawing stream is no use to read.
	Screen *Snapshot `json:"screen,omitempty" jsonschema:"Set when a full-screen program holds the terminal: its screen, as pty_screen returns it; the output field (delta, initialOutput) is then empty."`
}

// FullScreenSend wraps the pty_send tool (ptytools.Tools) so that a
// send that leaves the terminal in a full-screen program returns the
// screen, as pty_screen renders it, instead of the program's drawing
// stream (kilobytes of padded cells); the result says so. Other sends
// return as before. send must be ptysession's pty_send.
func FullScreenSend(m *Manager, send tools.Tool) tools.Tool {
	return WithFullScreen(m, send, sendOutput(), func(args json.RawMessage, _ ptysession.SendResult) core.SessionID {
		var a struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(args, &a)
		return core.SessionID(a.ID)
	}, func(sr ptysession.SendResult, snap Snapshot) any {
		out := SendResult{SendResult: sr, Screen: &snap}
		out.Delta, out.Truncated, out.Skipped = "", false, 0
		return out
	})
}

// OpenResult is pty_open's structured result once the screen tools serve
// it (see [FullScreenOpen]): the facade's result, and the screen when the
// command typed at open left a full-screen program on the terminal.
type OpenResult struct {
	ptysession.OpenResult
	// Screen is set when the session's command took the terminal over
	// (pty_open "vim notes.txt"); InitialOutput is then empty.
	Screen *Snapshot `json:"screen,omitempty" jsonschema:"Set when a full-screen program holds the terminal: its screen, as pty_screen returns it; the output field (delta, initialOutput) is then empty."`
}

// FullScreenOpen wraps the pty_open tool (ptytools.Tools) as
// [FullScreenSend] wraps pty_send: a session whose command leaves a
// full-screen program on the terminal returns its screen instead of the
// drawing stream as its initial output.
func FullScreenOpen(m *Manager, open tools.Tool) tools.Tool {
	return WithFullScreen(m, open, openOutput(), func(_ json.RawMessage, or ptysession.OpenResult) core.SessionID {
		return or.SessionID
	}, func(or ptysession.OpenResult, snap Snapshot) any {
		out := OpenResult{OpenResult: or, Screen: &snap}
		out.InitialOutput, out.Truncated = "", false
		return out
	})
}

// WaitResult is pty_wait's structured result once the screen tools serve
// it (see [FullScreenWait]): the facade's result, and the screen when the
// condition that fired is on a session a full-screen program holds.
type WaitResult struct {
	ptysession.WaitResult
	// Screen is set when an input or output condition fired on a session
	// whose terminal a full-screen program holds: what the terminal
	// shows, as pty_screen returns it. Output is then empty.
	Screen *Snapshot `json:"screen,omitempty" jsonschema:"Set when a full-screen program holds the terminal of the session whose condition fired: its screen, as pty_screen returns it; output is then empty."`
}

// FullScreenWait wraps the pty_wait tool (ptytools.WaitTool) as
// [FullScreenSend] wraps pty_send: when an input or output condition
// fires on a session that a full-screen program holds (a dialog that
// asks its next question, an editor a command opened), the result holds
// the screen instead of the drawing stream. Other results pass unchanged.
func FullScreenWait(m *Manager, wait tools.Tool) tools.Tool {
	return WithFullScreen(m, wait, waitOutput(), func(_ json.RawMessage, wr ptysession.WaitResult) core.SessionID {
		if !wr.Fired || wr.Kind != ptysession.WaitInput && wr.Kind != ptysession.WaitOutput {
			return ""
		}
		return core.SessionID(wr.Target)
	}, func(wr ptysession.WaitResult, snap Snapshot) any {
		out := WaitResult{WaitResult: wr, Screen: &snap}
		out.Output, out.Skipped = "", 0
		return out
	})
}

// WithFullScreen wraps a tool whose structured result is an R naming a
// session, giving it the output schema schema (a type with a Screen
// field, its schema inferred with [SnapshotSchema]): when the call
// leaves that session's terminal in a full-screen program, the result
// becomes withScreen's (the screen in place of the drawing stream) and
// its text the tool's headline, saying so, and the screen. Other
// results, and those session names no session of (""), pass unchanged.
// [FullScreenSend], [FullScreenOpen] and [FullScreenWait] are built on
// it; a server wraps its own tools that leave a program waiting so.
func WithFullScreen[R any](m *Manager, t tools.Tool, schema json.RawMessage, session func(json.RawMessage, R) core.SessionID, withScreen func(R, Snapshot) any) tools.Tool {
	inner := t.Handler
	t.OutputSchema = schema
	t.Handler = func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(tools.ProgressUpdate)) (tools.Result, error) {
		res, err := inner(ctx, owner, args, progress)
		if err != nil {
			return res, err
		}
		r, ok := res.Structured.(R)
		if !ok {
			return res, nil
		}
		id := session(args, r)
		if id == "" {
			return res, nil
		}
		snap, ok := m.fullScreen(ctx, owner, id)
		if !ok {
			return res, nil
		}
		return tools.Result{Structured: withScreen(r, snap), Text: renderFullScreenSend(res.Text, snap)}, nil
	}
	return t
}

// fullScreen returns the session's screen (only the changed rows where
// that is shorter) if a full-screen program holds its terminal: on the
// alternate screen, or drawing on the normal one (top).
func (m *Manager) fullScreen(ctx context.Context, owner *core.Owner, id core.SessionID) (Snapshot, bool) {
	md := m.mode(ctx, owner, id)
	if !md.known || !md.full() {
		return Snapshot{}, false
	}
	m.shown(owner, id)
	snap, err := m.Snapshot(ctx, owner, id, SnapshotOptions{})
	if err != nil || (md.alt && !snap.AltScreen) {
		return Snapshot{}, false
	}
	return shorter(snap), true
}

// renderFullScreenSend keeps the send's summary line and puts the screen
// in place of the output. A shell's prompt on the screen (inside tmux)
// takes its next command with pty_send; any other program its keys,
// except a prompt that hides input (a password dialog: a secret is not
// the model's to type) and a summary that already names the next call.
func renderFullScreenSend(text string, snap Snapshot) string {
	head := tools.Headline(text)
	next := "; type into it with pty_keys"
	switch {
	case strings.HasPrefix(head, "["+string(core.WaitRemotePrompt)):
		next = "; send the shell there its next command with pty_send"
	case strings.Contains(head, "hides input") || strings.Contains(head, "call pty_"):
		next = ""
	}
	head = strings.TrimSuffix(head, "]") + "; a full-screen program holds the terminal: its screen follows" + next + "]"
	return head + "\n" + snap.Text()
}
