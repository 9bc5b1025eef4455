package ptytools

import (
	"context"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// Tool names.
const (
	ToolOpen   = "pty_open"
	ToolSend   = "pty_send"
	ToolTail   = "pty_tail"
	ToolClose  = "pty_close"
	ToolList   = "pty_list"
	ToolRead   = "pty_read"
	ToolSignal = "pty_signal"
)

// outputOnceTools is the rule of OutputOnce for the pty tools.
const outputOnceTools = "Output is returned once: pty_open, pty_send, pty_tail, pty_signal and pty_keys each move your tail " +
	"past what they show, so pty_tail returns only what is new; to read output again, page it by line number with pty_read."

// OpenJobsHint is the sentence of pty_open's description that points at
// bg_launch; a server that does not serve the job tools removes it.
const OpenJobsHint = "For a server or watcher left running, prefer bg_launch (it can wait until the server is ready)."

// Tools returns the model-facing tools over s, in the order pty_open,
// pty_send, pty_tail, pty_close, pty_list, pty_read, pty_signal. Add them
// to a tools.Dispatcher. Each handler runs the facade call of the same
// name with the calling owner; errors are *tools.ToolError values whose
// hint names the sibling tool to use next.
func Tools(sessions *ptysession.Sessions) []tools.Tool {
	s := facade{sessions}
	max := s.Options().MaxTimeout
	return []tools.Tool{
		{
			Definition: tools.Definition{
				Name:  ToolOpen,
				Title: "Open a terminal session",
				Description: "Start a program (a shell, a REPL, a debugger) on a new pseudo-terminal session that keeps its " +
					"state (working directory, variables, the running program) across calls. Returns sessionId, status and " +
					"initialOutput (what it printed until it settled, as for pty_send); pty_close it when you are done. " + OpenJobsHint + " " +
					"The shell is bash set up for unattended use: history expansion is off (\"!\" is literal), " +
					"the pagers (PAGER, GIT_PAGER, MANPAGER) are cat, TERM is xterm-256color, and each prompt after a " +
					"command reports that line's exit code. " +
					openDeadlineText(max),
				InputSchema:  openInput(max),
				OutputSchema: openOutput(),
			},
			Handler: tools.Typed(s.openTool),
		},
		{
			Definition: tools.Definition{
				Name:  ToolSend,
				Title: "Type into a terminal session",
				Description: "Type data into a session and wait until it settles: the shell command finished (waitReason prompt), " +
					"the program waits for input (stdin_read), a remote or tmux shell shows its prompt (remote_prompt), output went quiet (inferred_idle; maybe still working), " +
					"the deadline passed (timeout) or the session exited. Returns delta (the output since the write), status " +
					"(running or exited, with the exit code) and waitReason. submit false sends data byte-exact without Enter, " +
					"for example \"\\u0003\" (Ctrl-C). " +
					sendLimits +
					"A returned send does not mean the program exited. One send per session at a time. When the program takes over the screen (vim, less, top), the result " +
					"holds the screen instead of delta; continue with pty_keys. " + outputOnceTools + " " +
					deadlineText(max),
				InputSchema:  sendInput(max),
				OutputSchema: sendOutput(),
			},
			Handler: tools.Typed(s.sendTool),
		},
		{
			Definition: tools.Definition{
				Name:  ToolTail,
				Title: "Read new output of a terminal session",
				Description: "Return the output of a session that you have not been given yet (output is returned once). If more than `lines` lines are " +
					"pending, it returns the newest ones, with truncated true and skipped the number left out. An unfinished last line such as a \">>> \" or \"Password: \" prompt is included at once.",
				InputSchema:  tailInput(),
				OutputSchema: tailOutput(),
			},
			Handler: tools.Typed(s.tailTool),
		},
		{
			Definition: tools.Definition{
				Name:  ToolClose,
				Title: "Close a terminal session",
				Description: "Close a session: terminate its program and every process it started. " +
					"Returns closed (false if it was already closed). Close sessions you no longer need.",
				InputSchema:  closeInput(),
				OutputSchema: closeOutput(),
			},
			Handler: tools.Typed(s.closeTool),
		},
		{
			Definition: tools.Definition{
				Name:         ToolList,
				Title:        "List terminal sessions",
				Description:  "List your open sessions: sessionId, backend type, pid, status and the number of lines printed so far.",
				InputSchema:  listInput(),
				OutputSchema: listOutput(),
			},
			Handler: tools.Typed(s.listTool),
		},
		{
			Definition: tools.Definition{
				Name:  ToolRead,
				Title: "Read a page of a session's scrollback",
				Description: "Read lines of a session's scrollback by absolute line number (line 0 is the first line it printed), " +
					"without moving pty_tail's position; newest true reads the last lines instead. To read the next page, call " +
					"it again with start set to the previous result's end.",
				InputSchema:  readInput(),
				OutputSchema: readOutput(),
			},
			Handler: tools.Typed(s.readTool),
		},
		{
			Definition: tools.Definition{
				Name:  ToolSignal,
				Title: "Signal a terminal session's program",
				Description: "Send a signal to the foreground of a session: the program running in it, or the shell itself when it is idle at its prompt. " +
					"SIGTERM or SIGKILL stop a program that ignores Ctrl-C. An idle shell ignores SIGTERM, SIGQUIT " +
					"and SIGTSTP and SIGKILL to it is refused, but SIGHUP ends it, and with it the session's program. Returns output: what the session " +
					"printed after the signal until it went quiet (a few seconds at most). To end the whole session use pty_close.",
				InputSchema:  signalInput(),
				OutputSchema: signalOutput(),
			},
			Handler: tools.Typed(s.signalTool),
		},
	}
}

// facade holds the handlers of the pty tools: each runs the facade call
// of the same name.
type facade struct{ *ptysession.Sessions }

// ptyHints name the pty tool to use next, per error code. A sentence that
// names a tool a server does not serve is left out there (see
// tools.OnlyServed): each stands alone.
var ptyHints = map[core.Code]string{
	core.CodeNoSession:       "Call pty_open to start a new session. pty_list shows your open ones.",
	core.CodeForeignSession:  "Use a sessionId that your own pty_open returned. pty_list shows yours.",
	core.CodeSendActive:      "Another pty_send is still running on this session: read its output with pty_tail, interrupt it with pty_signal SIGINT, or wait and retry.",
	core.CodeSessionExited:   "The program has exited: read its last output with pty_tail, then pty_close the session.",
	core.CodeSessionClosing:  "The session is being closed; call pty_open for a new one.",
	core.CodeSignalRefused:   "That would kill the session's own shell: call pty_close to end the session.",
	core.CodeTooManySessions: "Call pty_close on sessions you no longer need, then retry. pty_list shows them. Background jobs do not count.",
	core.CodeWrongKind:       "That id is a background job's (job_...); pty_* tools take terminal ids (pty_...). bg_read shows its output. bg_send types into it. bg_stop ends it. bg_drop deletes its record.",
	core.CodeSpawnFailed:     "Check the command, cwd and env, then call pty_open again.",
	core.CodeCleanupFailed:   "Some processes survived; call pty_close again.",
	core.CodeHumanInControl:  "A person took control of this session (the watch page) and is typing in it: do not retry at once; send again later (pty_tail shows what they do). Your first pty_send after they hand back says what changed.",
}

func toolErr(err error) error {
	return tools.AsToolError(err, ptyHints[core.CodeOf(err)])
}

// ptyResult is a pty tool's result: r with its text rendering, or err as
// a tool error with its hint.
func ptyResult[R any](r R, err error, render func(R) string) (tools.Result, error) {
	if err != nil {
		return tools.Result{}, toolErr(err)
	}
	return tools.Result{Structured: r, Text: render(r)}, nil
}

func (s facade) openTool(ctx context.Context, owner *core.Owner, a openArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	r, err := s.Open(ctx, owner, a.request())
	return ptyResult(r, err, ptysession.RenderOpen)
}

// request is the open pty_open's arguments ask for.
func (a openArgs) request() ptysession.OpenRequest {
	timeout, quiet := a.durations()
	return ptysession.OpenRequest{Command: a.Command, Cwd: a.Cwd, Env: a.Env, Size: core.Size{Rows: uint16(a.Rows), Cols: uint16(a.Cols)},
		Timeout: timeout, QuietWindow: quiet, Record: a.Record}
}

func (s facade) sendTool(ctx context.Context, owner *core.Owner, a sendArgs, progress func(tools.ProgressUpdate)) (tools.Result, error) {
	timeout, quiet := a.durations()
	noSubmit := a.Submit != nil && !*a.Submit
	data := a.Data
	if !noSubmit {
		data = lineWithoutEnter(data)
	}
	r, err := s.Send(ctx, owner, core.SessionID(a.ID), ptysession.SendRequest{
		Data: data, NoSubmit: noSubmit, Timeout: timeout, QuietWindow: quiet,
		Progress: func(d core.OutputDelta) {
			if d.Text == "" {
				progress(tools.ProgressUpdate{Message: "still running, no new output"})
				return
			}
			progress(tools.ProgressUpdate{Message: "output so far", Output: d.Text})
		},
	})
	return ptyResult(r, err, ptysession.RenderSend)
}

// lineWithoutEnter is the data of a pty_send with submit on: a line end
// at its end ("\n", "\r" or "\r\n", as a model used to bg_send writes
// one) is the Enter that submit presses, so it is taken off and the
// terminal's Enter key follows once, never a second Enter typed ahead
// that a program's next read would take as an empty answer.
func lineWithoutEnter(data string) string {
	if s, ok := strings.CutSuffix(data, "\r\n"); ok {
		return s
	}
	if s, ok := strings.CutSuffix(data, "\n"); ok {
		return s
	}
	return strings.TrimSuffix(data, "\r")
}

func (s facade) tailTool(ctx context.Context, owner *core.Owner, a tailArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	r, err := s.Tail(ctx, owner, core.SessionID(a.ID), a.Lines)
	return ptyResult(r, err, ptysession.RenderTail)
}

func (s facade) closeTool(ctx context.Context, owner *core.Owner, a idArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	r, err := s.Close(ctx, owner, core.SessionID(a.ID))
	return ptyResult(r, err, func(r ptysession.CloseResult) string { return ptysession.RenderClose(a.ID, r) })
}

func (s facade) listTool(ctx context.Context, owner *core.Owner, a struct{}, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	r, err := s.List(ctx, owner)
	return ptyResult(r, err, ptysession.RenderList)
}

func (s facade) readTool(ctx context.Context, owner *core.Owner, a readArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	r, err := s.Read(ctx, owner, core.SessionID(a.ID), ptysession.ReadRequest{Start: a.Start, Count: a.Lines, Newest: a.Newest})
	return ptyResult(r, err, ptysession.RenderRead)
}

func (s facade) signalTool(ctx context.Context, owner *core.Owner, a signalArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	r, err := s.Signal(ctx, owner, core.SessionID(a.ID), a.Signal)
	return ptyResult(r, err, func(r ptysession.SignalResult) string { return ptysession.RenderSignal(a.ID, r) })
}
