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

// FullScreenSend wraps the pty_send tool (ptysession.PtyTools) so that a
// send that leaves the terminal in a full-screen program returns the
// screen, as pty_screen renders it, instead of the program's drawing
// stream (kilobytes of padded cells); the result says so. Other sends
// return as before. send must be ptysession's pty_send.
func FullScreenSend(m *Manager, send tools.Tool) tools.Tool {
	inner := send.Handler
	send.OutputSchema = sendOutput
	send.Handler = func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(tools.ProgressUpdate)) (tools.Result, error) {
		res, err := inner(ctx, owner, args, progress)
		if err != nil {
			return res, err
		}
		sr, ok := res.Structured.(ptysession.SendResult)
		if !ok {
			return res, nil
		}
		var a struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(args, &a)
		snap, ok := m.fullScreen(ctx, owner, core.SessionID(a.ID))
		if !ok {
			return res, nil
		}
		out := SendResult{SendResult: sr, Screen: &snap}
		out.Delta, out.Truncated, out.Skipped = "", false, 0
		return tools.Result{Structured: out, Text: renderFullScreenSend(res.Text, snap)}, nil
	}
	return send
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

// FullScreenOpen wraps the pty_open tool (ptysession.PtyTools) as
// [FullScreenSend] wraps pty_send: a session whose command leaves a
// full-screen program on the terminal returns its screen instead of the
// drawing stream as its initial output.
func FullScreenOpen(m *Manager, open tools.Tool) tools.Tool {
	inner := open.Handler
	open.OutputSchema = openOutput
	open.Handler = func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(tools.ProgressUpdate)) (tools.Result, error) {
		res, err := inner(ctx, owner, args, progress)
		if err != nil {
			return res, err
		}
		or, ok := res.Structured.(ptysession.OpenResult)
		if !ok {
			return res, nil
		}
		snap, ok := m.fullScreen(ctx, owner, or.SessionID)
		if !ok {
			return res, nil
		}
		out := OpenResult{OpenResult: or, Screen: &snap}
		out.InitialOutput, out.Truncated = "", false
		return tools.Result{Structured: out, Text: renderFullScreenSend(res.Text, snap)}, nil
	}
	return open
}

// fullScreen returns the session's screen (only the changed rows where
// that is shorter) if its terminal is on the alternate screen.
func (m *Manager) fullScreen(ctx context.Context, owner *core.Owner, id core.SessionID) (Snapshot, bool) {
	if md := m.mode(ctx, owner, id); !md.known || !md.alt {
		return Snapshot{}, false
	}
	snap, err := m.Snapshot(ctx, owner, id, SnapshotOptions{})
	if err != nil || !snap.AltScreen {
		return Snapshot{}, false
	}
	return shorter(snap), true
}

// renderFullScreenSend keeps the send's summary line and puts the screen
// in place of the output.
func renderFullScreenSend(text string, snap Snapshot) string {
	head := tools.Headline(text)
	head = strings.TrimSuffix(head, "]") + "; a full-screen program holds the terminal: its screen follows; type into it with pty_keys]"
	return head + "\n" + snap.Text()
}
