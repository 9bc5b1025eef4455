package screen

import (
	"context"
	"strconv"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// Tool names.
const (
	ToolScreen = "pty_screen"
	ToolResize = "pty_resize"
	ToolKeys   = "pty_keys"
)

// Tools returns the model-facing screen tools over m, in the order
// pty_screen, pty_resize, pty_keys. Add them to the tools.Dispatcher that
// serves the pty_* tools of the same service. Errors are *tools.ToolError
// values whose hint names the tool to use next.
func Tools(m *Manager) []tools.Tool {
	return []tools.Tool{
		{
			Definition: tools.Definition{
				Name:  ToolScreen,
				Title: "Look at a terminal session's screen",
				Description: "Return what the session's terminal shows now: the rows of text, the cursor position, whether the " +
					"alternate screen is in use, and the window title. Use it for full-screen programs (vim, less, top, a menu), " +
					"where pty_tail's line output is unreadable. " +
					"changed lists the rows that changed since your previous look. " +
					"Type into the program with pty_keys.",
				InputSchema:  screenInput(),
				OutputSchema: screenOutput(),
			},
			Handler: tools.Typed(m.screenTool),
		},
		{
			Definition: tools.Definition{
				Name:  ToolResize,
				Title: "Resize a terminal session",
				Description: "Change a session's terminal size (rows and columns, 1 to 4096, at most " + strconv.Itoa(m.opts.MaxCells) +
					" cells: rows times columns). The program is told (SIGWINCH) and full-screen programs redraw at the new size; " +
					"pty_screen then shows it.",
				InputSchema:  resizeInput(),
				OutputSchema: resizeOutput(),
			},
			Handler: tools.Typed(m.resizeTool),
		},
		{
			Definition: tools.Definition{
				Name:  ToolKeys,
				Title: "Press keys in a terminal session",
				Description: "Type optional literal text, then press named keys, as one send: for full-screen programs and menus " +
					"(vim, less, top, curses installers). For example text ihello and keys [Escape] in vim, " +
					"keys [Down, Down, Enter] in a menu, keys [C-c] to interrupt. Waits until the program waits for the next key and its " +
					"screen stopped changing (after a final Escape, about 1 s), then returns the screen, or the output where no full-screen program runs. " +
					"Leaving one (vim :wq, less q) returns only the rows new on the normal screen.",
				InputSchema:  keysInput(),
				OutputSchema: keysOutput(),
			},
			Handler: tools.Typed(m.keysTool),
		},
	}
}

// screenHints name the tool to use next, per error code. A sentence that
// names a tool a server does not serve is left out there (see
// tools.OnlyServed): each stands alone.
var screenHints = map[core.Code]string{
	core.CodeNoSession:       "Call pty_open to start a new session. pty_list shows your open ones.",
	core.CodeForeignSession:  "Use a sessionId that your own pty_open returned. pty_list shows yours.",
	core.CodeSendActive:      "Another call is still typing into this session: wait for it, or interrupt with pty_signal SIGINT. pty_screen shows the screen meanwhile.",
	core.CodeSessionExited:   "The program has exited: pty_close the session. pty_screen shows its last screen.",
	core.CodeSessionClosing:  "The session is being closed; call pty_open for a new one.",
	core.CodeInvalidArgument: "Fix the named argument (key names: Enter, Escape, Up, C-c, ...) and call the tool again.",
	core.CodeUnsupported:     "This session's backend cannot do that.",
}

func toolErr(err error) error {
	return tools.AsToolError(err, screenHints[core.CodeOf(err)])
}

// ResizeResult is the structured result of pty_resize.
type ResizeResult struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
}

// KeysToolResult is the structured result of pty_keys: the screen while a
// full-screen program holds the terminal (or just left it), else the
// output the keys brought, as pty_send returns it.
type KeysToolResult struct {
	WaitReason core.WaitReason `json:"waitReason"`
	Status     core.Status     `json:"status"`
	// Screen is the screen after the keys, as pty_screen returns it; nil
	// when no full-screen program held the terminal (Delta then).
	Screen *Snapshot `json:"screen,omitempty" jsonschema:"The screen after the keys, when a full-screen program holds the terminal or just left it."`
	// Delta is the output the keys brought when no full-screen program
	// held the terminal (a shell's Tab completion, Ctrl-D to cat).
	Delta string `json:"delta,omitempty" jsonschema:"Output the keys brought, when no full-screen program holds the terminal (then there is no screen)."`
	// ExitCode is the shell's exit code for the command the keys ended
	// with Enter, as in pty_send.
	ExitCode *int `json:"exitCode,omitempty"`
	// Truncated reports that older parts of Delta were dropped.
	Truncated bool `json:"truncated,omitempty"`
	// Foreground is the program that held the terminal when the keys
	// settled without a prompt or a read (a timeout), as in pty_send.
	Foreground *core.ForegroundProgram `json:"foreground,omitempty"`
	// LeftFullScreen reports that the program left the alternate screen;
	// Screen then holds only the rows new on the normal screen.
	LeftFullScreen bool `json:"leftFullScreen,omitempty"`
	// CommandLine is the text the keys left on the input line a shell or
	// program reads, not entered, as in pty_send.
	CommandLine string `json:"commandLine,omitempty" jsonschema:"Text the keys left on the input line a shell or program reads, not entered: a pty_send types after it."`
	// Discarded counts the bytes of the keys the program threw away
	// unread (see KeysResult.Discarded); absent when none were.
	Discarded int `json:"discarded,omitempty"`
}

func (m *Manager) screenTool(ctx context.Context, owner *core.Owner, a screenArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	m.shown(owner, core.SessionID(a.ID))
	s, err := m.Snapshot(ctx, owner, core.SessionID(a.ID), SnapshotOptions{ChangedOnly: a.ChangedOnly})
	if err != nil {
		return tools.Result{}, toolErr(err)
	}
	return tools.Result{Structured: s, Text: s.Text()}, nil
}

func (m *Manager) resizeTool(ctx context.Context, owner *core.Owner, a resizeArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	if a.Rows < 1 || a.Rows > core.MaxDimension {
		return tools.Result{}, tools.InvalidArgument("rows", "must be 1 to %d", core.MaxDimension)
	}
	if a.Cols < 1 || a.Cols > core.MaxDimension {
		return tools.Result{}, tools.InvalidArgument("cols", "must be 1 to %d", core.MaxDimension)
	}
	size := core.Size{Rows: uint16(a.Rows), Cols: uint16(a.Cols)}
	if err := m.Resize(ctx, owner, core.SessionID(a.ID), size); err != nil {
		return tools.Result{}, toolErr(err)
	}
	r := ResizeResult{Rows: a.Rows, Cols: a.Cols}
	return tools.Result{Structured: r, Text: renderResize(a.ID, r)}, nil
}

func (m *Manager) keysTool(ctx context.Context, owner *core.Owner, a keysArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	if a.Text == "" && len(a.Keys) == 0 {
		return tools.Result{}, tools.InvalidArgument("keys", "give text, keys or both")
	}
	r, err := m.SendKeys(ctx, owner, core.SessionID(a.ID), KeysRequest{Text: a.Text, Keys: a.Keys, ChangedOnly: a.ChangedOnly, Paced: a.Paced})
	if err != nil {
		return tools.Result{}, toolErr(err)
	}
	out := KeysToolResult{WaitReason: r.Send.WaitReason, Status: r.Send.Status, LeftFullScreen: r.LeftFullScreen, Discarded: r.Discarded, Foreground: r.Send.Foreground}
	if r.LineMode {
		out.Delta, out.ExitCode, out.Truncated, out.CommandLine = r.Send.Delta, r.Send.ExitCode, r.Send.Truncated, r.Send.CommandLine
	} else {
		out.Screen = &r.Screen
	}
	return tools.Result{Structured: out, Text: renderKeys(out)}, nil
}
