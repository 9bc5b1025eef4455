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
	Screen *Snapshot `json:"screen,omitempty"`
}

// FullScreenSend wraps the pty_send tool (ptysession.PtyTools) so that a
// send that leaves the terminal in a full-screen program returns the
// screen, as pty_screen renders it, instead of the program's drawing
// stream (kilobytes of padded cells); the result says so. Other sends
// return as before. send must be ptysession's pty_send.
func FullScreenSend(m *Manager, send tools.Tool) tools.Tool {
	inner := send.Handler
	send.OutputSchema = withScreenProperty(send.OutputSchema)
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
		id := core.SessionID(a.ID)
		if md := m.mode(ctx, owner, id); !md.known || !md.alt {
			return res, nil
		}
		snap, err := m.Snapshot(ctx, owner, id, SnapshotOptions{})
		if err != nil || !snap.AltScreen {
			return res, nil
		}
		snap = shorter(snap)
		out := SendResult{SendResult: sr, Screen: &snap}
		out.Delta, out.Truncated, out.Skipped = "", false, 0
		return tools.Result{Structured: out, Text: renderFullScreenSend(res.Text, snap)}, nil
	}
	return send
}

// renderFullScreenSend keeps the send's summary line and puts the screen
// in place of the output.
func renderFullScreenSend(text string, snap Snapshot) string {
	head := tools.Headline(text)
	head = strings.TrimSuffix(head, "]") + "; a full-screen program holds the terminal: its screen follows; type into it with pty_keys]"
	return head + "\n" + snap.Text()
}

// withScreenProperty adds the optional "screen" property to pty_send's
// output schema.
func withScreenProperty(doc json.RawMessage) json.RawMessage {
	var s map[string]any
	if err := json.Unmarshal(doc, &s); err != nil {
		return doc
	}
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return doc
	}
	scr := snapshotSchema()
	scr["description"] = "Set when the send left a full-screen program on the terminal: its screen, as pty_screen returns it; delta is then empty."
	props["screen"] = scr
	out, err := json.Marshal(s)
	if err != nil {
		return doc
	}
	return out
}
