package jobtools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// Tool names.
const (
	ToolLaunch    = "bg_launch"
	ToolSend      = "bg_send"
	ToolRead      = "bg_read"
	ToolList      = "bg_list"
	ToolStop      = "bg_stop"
	ToolStopGroup = "bg_stop_group"
	ToolDrop      = "bg_drop"
)

// Tools returns the seven bg_* tools over m, in the order bg_launch,
// bg_send, bg_read, bg_list, bg_stop, bg_stop_group, bg_drop. Every handler
// acts for the calling owner: an owner sees and touches only the jobs it
// launched.
func Tools(m *jobs.Manager) []tools.Tool {
	h := handlers{m: m, now: time.Now}
	return []tools.Tool{
		tool(ToolLaunch, "Launch a background job",
			"Start a long-running program in the background (a dev server, a watcher, a long build) that keeps running after "+
				"this call. Returns the job: id (for the other bg_* tools), pid, status and warnings (a requested port "+
				"already in use). waitFor returns once the server is ready (it printed a URL, a port accepts connections, "+
				"or a line matches); notifyOnExit sends a notice when it ends, instead of polling. Read its output with "+
				"bg_read, stop it with bg_stop. Use bg_launch, not pty_open, for servers and watchers you leave running; "+
				"use pty_open for programs you talk to (shells, REPLs, debuggers).",
			launchInput(), launchOutput(), tools.Typed(h.launch)),
		tool(ToolSend, "Send input to a background job",
			"Write input to a job: text and escapes such as \"rs\\n\" (type rs and Enter) or \"\\x03\" (Ctrl-C, which "+
				"interrupts the program on a pty job). Returns how many bytes were written and an echo of them. It does "+
				"not wait for output: read it with bg_read.",
			sendInput(), sendOutput(), tools.Typed(h.send)),
		tool(ToolRead, "Read a background job's output",
			"Page through a job's output (the newest lines are kept; escape sequences removed). Without from it "+
				"returns the newest lines; with from it continues at that global line number: pass the previous result's "+
				"next to read only what is new. pattern keeps only matching lines. dropped and truncated tell when older history was discarded. Works after the job ended too.",
			readInput(), readOutput(), tools.Typed(h.read)),
		tool(ToolList, "List background jobs",
			"List your jobs, optionally only one group or status: id, pid, status (running, stopping, finished, failed, "+
				"stopped), exit code or signal, output statistics and the service addresses found in their output.",
			listInput(), listOutput(), tools.Typed(h.list)),
		tool(ToolStop, "Stop a background job",
			"Stop a job: SIGTERM, then SIGKILL if it has not ended after the grace period (reason forced). Returns "+
				"the job's final state; stopping an ended job just returns it.",
			stopInput(), stopOutput(), tools.Typed(h.stop)),
		tool(ToolStopGroup, "Stop a group of background jobs",
			"Stop every running job of a group at once (as bg_stop does), optionally dropping their records.",
			stopGroupInput(), stopGroupOutput(), tools.Typed(h.stopGroup)),
		tool(ToolDrop, "Delete ended background jobs",
			"Delete the records (and output) of ended jobs: one by id, every ended job of a group, or with neither every "+
				"ended job. Running jobs are kept and listed as skipped; stop them first with bg_stop.",
			dropInput(), dropOutput(), tools.Typed(h.drop)),
	}
}

// tool assembles one bg_* tool.
func tool(name, title, description string, in, out json.RawMessage, h tools.Handler) tools.Tool {
	return tools.Tool{
		Definition: tools.Definition{Name: name, Title: title, Description: description, InputSchema: in, OutputSchema: out},
		Handler:    h,
	}
}

type handlers struct {
	m   *jobs.Manager
	now func() time.Time
}

func (h handlers) done(structured any, text string, err error) (tools.Result, error) {
	if err != nil {
		return tools.Result{}, toolError(err)
	}
	return tools.Result{Structured: structured, Text: tools.BoundHead(text, core.DefaultMaxTextBytes)}, nil
}

func (h handlers) launch(ctx context.Context, owner *core.Owner, a launchArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	var readyBound time.Duration
	if a.WaitFor != nil {
		var err error
		if readyBound, err = a.WaitFor.validate(); err != nil {
			return tools.Result{}, err
		}
	}
	switch {
	case a.Command == "":
		return tools.Result{}, tools.InvalidArgument("command", "required")
	case a.TimeoutMs < 0:
		return tools.Result{}, tools.InvalidArgument("timeoutMs", "must not be negative")
	case a.TimeoutMs > int64(24*time.Hour/time.Millisecond)*365:
		return tools.Result{}, tools.InvalidArgument("timeoutMs", "too large")
	}
	switch a.Backend {
	case "", jobs.BackendAuto, jobs.BackendPTY, jobs.BackendPipe:
	default:
		return tools.Result{}, tools.InvalidArgument("backend", `must be "auto", "pty" or "pipe"`)
	}
	info, err := h.m.Launch(ctx, owner, jobs.LaunchRequest{
		Command: a.Command, Args: a.Args, Cwd: a.Cwd, Env: a.Env, Title: a.Title, Group: a.Group,
		Timeout: time.Duration(a.TimeoutMs) * time.Millisecond, Ports: a.Ports,
		NotifyOnExit: a.NotifyOnExit, Backend: a.Backend,
	})
	if err != nil {
		te := toolError(err)
		if hint := commandLineHint(a.Command, a.Args); hint != "" && (te.Code == string(core.CodeSpawnFailed) || len(a.Command) > core.MaxPathBytes) {
			te.Hint = hint
		}
		return tools.Result{}, te
	}
	if a.WaitFor == nil {
		return h.done(LaunchOut{JobBrief: jobBrief(info)}, renderLaunch(info)+portsNotWaited(a.Ports), nil)
	}
	ready := h.awaitReady(ctx, owner, info.ID, *a.WaitFor, readyBound)
	if now, err := h.m.Get(owner, info.ID); err == nil {
		info = now
	}
	return h.done(LaunchOut{JobBrief: jobBrief(info), Ready: &ready}, renderLaunch(info)+renderReady(ready), nil)
}

func (h handlers) send(ctx context.Context, owner *core.Owner, a sendArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	if err := requireID(a.ID); err != nil {
		return tools.Result{}, err
	}
	var res jobs.WriteResult
	var err error
	if a.Raw {
		res, err = h.m.WriteRaw(ctx, owner, a.ID, []byte(a.Data))
	} else {
		res, err = h.m.Write(ctx, owner, a.ID, a.Data)
	}
	if err != nil {
		return h.done(nil, "", err)
	}
	info, err := h.m.Get(owner, a.ID)
	if err != nil {
		return h.done(nil, "", err)
	}
	out := SendOut{ID: a.ID, Bytes: res.Bytes, Echo: res.Echo, Status: info.State}
	return h.done(out, fmt.Sprintf("[sent %d bytes to job %s (%s)] %s", res.Bytes, a.ID, info.State, res.Echo), nil)
}

func (h handlers) read(ctx context.Context, owner *core.Owner, a readArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	if err := requireID(a.ID); err != nil {
		return tools.Result{}, err
	}
	switch {
	case a.From != nil && *a.From < 0:
		return tools.Result{}, tools.InvalidArgument("from", "must not be negative")
	case a.Limit < 0 || a.Limit > jobs.MaxReadLimit:
		return tools.Result{}, tools.InvalidArgument("limit", "must be 1 to %d", jobs.MaxReadLimit)
	}
	res, err := h.m.Read(owner, a.ID, jobs.ReadRequest{From: a.From, Limit: a.Limit, Pattern: a.Pattern, IgnoreCase: a.IgnoreCase})
	if err != nil {
		return h.done(nil, "", err)
	}
	out := ReadOut{
		ID: a.ID, Status: res.State, ExitCode: res.ExitCode, Signal: res.Signal, Lines: make([]LineOut, len(res.Lines)),
		Next: res.Next, Total: res.Total, First: res.First, Dropped: res.Dropped, Truncated: res.Truncated, More: res.More,
	}
	for i, l := range res.Lines {
		out.Lines[i] = LineOut{N: l.N, Text: l.Text, Partial: l.Partial}
	}
	if res.State == jobs.StateRunning {
		out.WaitingForInput, _, _ = h.m.WaitingForInput(owner, a.ID) // unknown reads as not waiting
	}
	return h.done(out, renderRead(a.Pattern, res, out.WaitingForInput), nil)
}

func (h handlers) list(ctx context.Context, owner *core.Owner, a listArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	if a.Status != "" && !a.Status.Valid() {
		return tools.Result{}, tools.InvalidArgument("status", "must be one of running, stopping, finished, failed, stopped")
	}
	infos, err := h.m.List(owner, jobs.ListFilter{Group: a.Group, State: a.Status})
	if err != nil {
		return h.done(nil, "", err)
	}
	now := h.now()
	out := ListOut{Jobs: make([]JobOut, len(infos))}
	for i, in := range infos {
		out.Jobs[i] = jobOut(in, now)
	}
	return h.done(out, renderList(infos, now), nil)
}

func (h handlers) stop(ctx context.Context, owner *core.Owner, a stopArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	if err := requireID(a.ID); err != nil {
		return tools.Result{}, err
	}
	info, err := h.m.Stop(ctx, owner, a.ID, jobs.StopOptions{Drop: a.Drop, Force: a.Force})
	if err != nil {
		return h.done(nil, "", err)
	}
	text := "job " + info.ID + " " + jobs.Outcome(info)
	if a.Drop {
		text += "; record dropped"
	}
	return h.done(StopOut{JobBrief: jobBrief(info), Dropped: a.Drop}, text, nil)
}

func (h handlers) stopGroup(ctx context.Context, owner *core.Owner, a stopGroupArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	if a.Group == "" {
		return tools.Result{}, tools.InvalidArgument("group", "required")
	}
	infos, err := h.m.StopGroup(ctx, owner, a.Group, jobs.StopOptions{Drop: a.Drop, Force: a.Force})
	if err != nil {
		return h.done(nil, "", err)
	}
	now := h.now()
	out := StopGroupOut{Group: a.Group, Jobs: make([]JobOut, len(infos)), Dropped: a.Drop}
	for i, in := range infos {
		out.Jobs[i] = jobOut(in, now)
	}
	return h.done(out, renderStopGroup(a.Group, infos, a.Drop), nil)
}

func (h handlers) drop(ctx context.Context, owner *core.Owner, a dropArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
	if a.ID != "" && a.Group != "" {
		return tools.Result{}, tools.InvalidArgument("group", "give id or group, not both")
	}
	res, err := h.m.Drop(ctx, owner, jobs.DropRequest{ID: a.ID, Group: a.Group})
	if err != nil {
		return h.done(nil, "", err)
	}
	out := DropOut{Dropped: res.Dropped, Skipped: res.Skipped}
	if out.Dropped == nil {
		out.Dropped = []string{}
	}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	return h.done(out, renderDrop(res), nil)
}
