package ptysession

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// Target is a place other than the default backend where [Sessions.Open]
// can start a shell: a remote host the deployer configured (an ssh
// backend target). The model names it; everything else, credentials
// included, stays on the server side in Options.
type Target struct {
	// Backend is the backend type the session is spawned on ("ssh").
	Backend string
	// Options is the backend's SpawnRequest.Options (for "ssh" a
	// *ssh.Target with its host, user, credentials and host key policy).
	Options any
	// Description tells the model what the target is ("the staging
	// database host"); it never holds a secret.
	Description string
	// PromptMarker types localpty.ShellSetup into the remote shell before
	// Open returns: the OSC 133 prompt marker (bash: PS1 and
	// PROMPT_COMMAND), so that sends settle on the prompt, not on silence,
	// plus what the local "shell" type sets (history expansion off,
	// pagers neutralised). Set it for bash login shells; other shells
	// settle on silence.
	PromptMarker bool
}

// targetFor resolves OpenRequest.Target; nil for the default backend.
func (s *Sessions) targetFor(op, name string) (*Target, error) {
	if name == "" {
		return nil, nil
	}
	t, ok := s.opts.Targets[name]
	if !ok {
		if len(s.opts.Targets) == 0 {
			return nil, invalid(op, "", "target", "%q: this server has no remote targets configured; omit target for a local session", name)
		}
		return nil, invalid(op, "", "target", "%q is not configured; the targets are: %s", name, strings.Join(s.TargetNames(), ", "))
	}
	return &t, nil
}

// TargetNames lists the configured targets, sorted.
func (s *Sessions) TargetNames() []string {
	names := make([]string, 0, len(s.opts.Targets))
	for n := range s.opts.Targets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// setupTarget prepares a freshly spawned remote shell: it types
// localpty.ShellSetup (the prompt marker among it) and waits for the first
// marked prompt, the one that answers that line (bounded by OpenTimeout; a
// shell that prints none keeps settling on silence). It returns why the
// wait ended ("" when the target needs no set-up) and what the open shows
// of it: the output before the line and the prompt after it, the line's
// echo skipped.
func (s *Sessions) setupTarget(ctx context.Context, owner *core.Owner, id core.SessionID, t *Target) (setup, error) {
	if !t.PromptMarker {
		return setup{}, nil
	}
	// What the shell printed before the line (a banner, the message of
	// the day) is the caller's; the line's echo is not. It is typed at
	// the login shell's own prompt, the unterminated last line of what
	// came before, which the marked prompt after it replaces.
	before, cut, err := s.consumeCut(owner, id, MaxLines)
	if err != nil {
		return setup{}, err
	}
	r, err := s.run(ctx, owner, id, core.SendRequest{
		Data:    localpty.ShellSetup(),
		Timeout: s.opts.OpenTimeout, QuietWindow: s.opts.OpenTimeout,
	}, nil)
	if err != nil {
		return setup{}, err
	}
	su := setup{reason: r.WaitReason, before: before, cut: cut}
	if r.WaitReason != core.WaitPrompt {
		return su, nil // no marked prompt to show instead: the echo stays
	}
	// Past the echo; the prompt after it counts as given, and is.
	if err := s.t.SkipTail(owner, id); err != nil {
		return setup{}, err
	}
	su.before.Text = su.before.Text[:strings.LastIndexByte(su.before.Text, '\n')+1]
	su.prompt = r.Delta[strings.LastIndexByte(r.Delta, '\n')+1:]
	return su, nil
}

// setup is what typing the prompt marker's set-up line into a target's
// shell left for the open to return: the output before it, then, where
// the line settled on its marked prompt, that prompt instead of the
// line's echo.
type setup struct {
	reason core.WaitReason
	before core.OutputDelta
	cut    []LineRange
	prompt string // "" when the echo was left in the output
}

// targetLate explains err from starting a session on target when the
// open's deadline (startCtx's) ended it, not the caller (ctx): the far
// side did not answer in time. A CleanupError is kept as it is.
func targetLate(ctx, startCtx context.Context, target string, timeout time.Duration, err error) error {
	var ce *core.CleanupError
	if startCtx.Err() == nil || ctx.Err() != nil || errors.As(err, &ce) {
		return err
	}
	return &core.Error{Code: core.CodeSpawnFailed, Op: "open", Err: err, Msg: fmt.Sprintf(
		"target %q did not start a shell within the open's deadline (%v): the host, or its agent, did not answer in time; "+
			"raise timeoutMs if the host is slow (its first open may upload the agent), or ask the deployer to check it", target, timeout)}
}
