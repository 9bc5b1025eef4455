package ptysession

import (
	"context"
	"errors"
	"path"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// OpenRequest asks for a new session.
type OpenRequest struct {
	// Command is what to run. On a shell-type backend it is typed into the
	// shell (empty, or one of Options.ShellNames alone: nothing is typed and
	// the shell itself is the program). On an argv backend it is split into
	// argv with [SplitCommand] and must not be empty.
	Command string
	// Cwd is the working directory ("" keeps the backend's default).
	Cwd string
	// Env holds extra environment variables; names must match
	// [A-Za-z_][A-Za-z0-9_]* and values must not contain NUL. They are
	// passed to the backend, or typed as export statements before the
	// command when Options.ShellQuoteEnv is set.
	Env map[string]string
	// Size is the terminal's size (zero: the backend's default; a zero
	// dimension takes core.DefaultSize's).
	Size core.Size
	// Name is optional owner-local display metadata, unique among the
	// owner's running sessions: a session whose program has exited frees
	// its name (see [Sessions.Find], [Sessions.OpenOrGet]). It authorizes
	// nothing.
	Name string
	// Record asks for a recording of the session (Options.Recording).
	Record bool
	// Target names one of Options.Targets: the session is then a shell on
	// that remote host, Command is typed into it and Env exported there
	// ("" opens on the default backend).
	Target string
	// Timeout bounds how long Open waits for the typed command to settle
	// (0: Options.OpenTimeout); at most Options.MaxTimeout. A command still
	// busy then keeps running. Set without QuietWindow, it is the wait's
	// quiet window too, as for [SendRequest].Timeout.
	Timeout time.Duration
	// QuietWindow is the output silence after which the typed command
	// counts as settled (0: the seam's default); at most
	// Options.MaxTimeout.
	QuietWindow time.Duration
}

// OpenResult describes a new session. Its initial output (see
// [core.SpawnOutput]) is what the session printed before Open returned:
// the shell's banner and prompt, the typed command's echo and what it
// printed until it settled. Output is returned once: the owner's tail
// position moves past it.
type OpenResult struct {
	// SessionID is the service-minted id the other calls take.
	SessionID core.SessionID `json:"sessionId"`
	// PID is the top-level process id (0, and omitted, where the backend
	// cannot name one).
	PID int `json:"pid,omitempty"`
	// Status is the session's status when Open returned.
	Status core.Status `json:"status"`
	core.SpawnOutput
	// Cut lists the line ranges left out of InitialOutput when
	// Options.Cut is CutKeepErrors (see SendResult.Cut).
	Cut []LineRange `json:"cut,omitempty"`
	// WaitReason says how the typed command settled, or, with nothing
	// typed, how a target's set-up did (prompt: the marker answered it);
	// empty when nothing was typed on a session that needed no set-up.
	WaitReason core.WaitReason `json:"waitReason,omitempty"`
	// ExitCode is the typed command's exit status when the shell's
	// prompt marker reported it (as in a send's result); nil otherwise.
	ExitCode *int `json:"exitCode,omitempty"`
}

// Open starts a session for owner. Setup failures leave nothing behind:
// if typing the command fails or ctx ends, the session is closed and the
// error returned (a *core.CleanupError keeping it if the close failed).
// Bad input is INVALID_ARGUMENT naming the field.
func (s *Sessions) Open(ctx context.Context, owner *core.Owner, req OpenRequest) (OpenResult, error) {
	const op = "open"
	if owner == nil {
		return OpenResult{}, invalid(op, "", "owner", "is nil")
	}
	if err := ctx.Err(); err != nil {
		return OpenResult{}, cancelled(op, "", err)
	}
	switch {
	case strings.IndexByte(req.Command, 0) >= 0:
		return OpenResult{}, invalid(op, "", "command", "contains a NUL byte")
	case strings.IndexByte(req.Cwd, 0) >= 0:
		return OpenResult{}, invalid(op, "", "cwd", "contains a NUL byte")
	case len(req.Command) > s.opts.MaxSendBytes:
		return OpenResult{}, invalid(op, "", "command", "%d bytes exceeds the limit of %d", len(req.Command), s.opts.MaxSendBytes)
	}
	if err := core.CheckDeadlines(op, "", req.Timeout, req.QuietWindow, s.opts.MaxTimeout); err != nil {
		return OpenResult{}, err
	}
	openTimeout := req.Timeout
	if openTimeout == 0 {
		openTimeout = s.opts.OpenTimeout
	}
	env, err := validateEnv(req.Env)
	if err != nil {
		return OpenResult{}, core.WithOp(err, op)
	}
	target, err := s.targetFor(op, req.Target)
	if err != nil {
		return OpenResult{}, err
	}
	if req.Record && !s.opts.Recording {
		return OpenResult{}, invalid(op, "", "record", "this server does not record sessions (its deployer turns recording on with --record-dir)")
	}
	spawn := core.SpawnRequest{Type: s.opts.Backend, Name: req.Name, Dir: req.Cwd, Size: openSize(req.Size), Record: req.Record}
	if target != nil { // a remote shell (remote.go): always typed
		spawn.Type, spawn.Options = target.Backend, target.Options
	}
	var typed string // the line to type into the shell, if any
	if s.opts.argvMode() && target == nil {
		argv, err := SplitCommand(req.Command)
		if err != nil {
			return OpenResult{}, core.WithOp(err, op)
		}
		if len(argv) == 0 {
			return OpenResult{}, invalid(op, "", "command", "is empty: name the program to run")
		}
		spawn.Command, spawn.Env = argv, env
	} else {
		// One typed line: the exports (if any) and the command, so that the
		// shell goes through a single prompt cycle.
		var parts []string
		if s.opts.ShellQuoteEnv && len(env) > 0 {
			// Typed, env never reaches the spawn's check: a value exec
			// refuses would leave a shell that starts no program.
			if err := core.ValidateEnv(env); err != nil {
				return OpenResult{}, core.WithOp(err, op)
			}
			line, err := ExportLine(req.Env)
			if err != nil {
				return OpenResult{}, core.WithOp(err, op)
			}
			parts = append(parts, line)
		} else {
			spawn.Env = env
		}
		cmd := strings.TrimSuffix(strings.TrimSuffix(req.Command, "\n"), "\r")
		if strings.TrimSpace(cmd) != "" && !s.isShellName(cmd) {
			parts = append(parts, cmd)
			spawn.Title = cmd // the command alone: exported values stay out of listings
		}
		if len(parts) > 0 {
			typed = strings.Join(parts, "; ")
		}
	}

	// A remote open is bounded by its deadline as a whole: dialing,
	// logging in, starting the far side's agent and the shell's setup
	// take from it, and the typed command gets what is left. A far side
	// that never answers fails the open by then instead of holding it
	// (and its slot among the sessions) for as long as it likes.
	deadline := time.Now().Add(openTimeout)
	startCtx := ctx
	if target != nil {
		var cancel context.CancelFunc
		startCtx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	sp, err := s.t.Spawn(startCtx, owner, spawn)
	if err != nil {
		return OpenResult{}, targetLate(ctx, startCtx, req.Target, openTimeout, s.noBackendHelp(err, spawn.Type))
	}
	id := sp.ID
	var reason core.WaitReason
	var exitCode *int
	var su setup
	if target != nil {
		if su, err = s.setupTarget(startCtx, owner, id, target); err != nil {
			return OpenResult{}, targetLate(ctx, startCtx, req.Target, openTimeout, s.abandon(owner, id, err))
		}
		reason = su.reason
	}
	if typed != "" {
		timeout := openTimeout
		if target != nil {
			timeout = max(time.Until(deadline), time.Millisecond)
		}
		// The open's own deadline is no caller's word on how long the
		// command takes: silence settles it as usual.
		r, err := s.run(ctx, owner, id, core.SendRequest{Data: typed, Timeout: timeout, QuietWindow: req.QuietWindow, KeepQuietWindow: req.Timeout == 0}, nil)
		if err != nil {
			return OpenResult{}, s.abandon(owner, id, err)
		}
		reason, exitCode = r.WaitReason, r.ExitCode
	}
	// The open returns everything the session printed so far (the
	// spawn's initial output, the set-up's prompt and the typed
	// command's), and the owner's tail position continues past it.
	d, cut, err := s.consumeCut(owner, id, MaxLines)
	if err != nil {
		return OpenResult{}, s.abandon(owner, id, err)
	}
	d.Text = su.before.Text + su.prompt + d.Text
	d.Truncated = d.Truncated || su.before.Truncated
	cut = append(su.cut, cut...)
	info, err := s.t.Info(owner, id)
	if err != nil {
		return OpenResult{}, s.abandon(owner, id, err)
	}
	return OpenResult{
		SessionID:   id,
		PID:         info.PID,
		Status:      info.Status,
		SpawnOutput: core.SpawnOutput{InitialOutput: d.Text, Truncated: d.Truncated},
		Cut:         cut,
		WaitReason:  reason,
		ExitCode:    exitCode,
	}, nil
}

// isShellName reports whether cmd names the shell itself.
func (s *Sessions) isShellName(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	if strings.ContainsAny(cmd, " \t\n") {
		return false
	}
	base := path.Base(cmd)
	for _, n := range s.opts.ShellNames {
		if cmd == n || base == n {
			return true
		}
	}
	return false
}

// abandon closes a session whose setup failed and returns cause, or a
// *core.CleanupError keeping cause if the close failed.
func (s *Sessions) abandon(owner *core.Owner, id core.SessionID, cause error) error {
	ctx, cancel := context.WithTimeout(context.Background(), core.DefaultCloseTimeout)
	defer cancel()
	if _, err := s.t.Close(ctx, owner, id, "open failed"); err != nil {
		ce := &core.CleanupError{Cause: cause, Err: err}
		var inner *core.CleanupError
		if errors.As(err, &inner) {
			ce.Err, ce.Survivors = inner.Err, inner.Survivors
		}
		return ce
	}
	return core.WithOp(cause, "open")
}

// reader serves a cursor from the seam's page reads.
func (s *Sessions) reader(owner *core.Owner, id core.SessionID) func(core.PageRequest) (core.PageResult, error) {
	return func(req core.PageRequest) (core.PageResult, error) {
		return s.t.Read(owner, id, req)
	}
}

// openSize fills a half-given size from core.DefaultSize.
func openSize(sz core.Size) core.Size {
	if sz == (core.Size{}) {
		return sz
	}
	if sz.Rows == 0 {
		sz.Rows = core.DefaultSize.Rows
	}
	if sz.Cols == 0 {
		sz.Cols = core.DefaultSize.Cols
	}
	return sz
}
