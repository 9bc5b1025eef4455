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
// wait ended; "" when the target needs no set-up.
func (s *Sessions) setupTarget(ctx context.Context, owner *core.Owner, id core.SessionID, t *Target) (core.WaitReason, error) {
	if !t.PromptMarker {
		return "", nil
	}
	r, err := s.run(ctx, owner, id, core.SendRequest{
		Data:    localpty.ShellSetup(),
		Timeout: s.opts.OpenTimeout, QuietWindow: s.opts.OpenTimeout,
	}, nil)
	return r.WaitReason, err
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
