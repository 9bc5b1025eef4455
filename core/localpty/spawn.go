//go:build unix

package localpty

import (
	"context"
	"errors"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Spawn starts the program on a new terminal. req.Options is nil or a
// [SpawnOptions].
// An unusable req.Dir is a CodeInvalidArgument error and a program that
// cannot be started a CodeSpawnFailed error; both wrap the OS error and
// leave nothing behind.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := b.spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (b *Backend) spawn(ctx context.Context, req core.BackendRequest) (*session, error) {
	if err := ctx.Err(); err != nil {
		return nil, wrapErr(core.CodeSpawnFailed, err, "spawn cancelled")
	}
	so, err := spawnOptions(b.typ, req.Options)
	if err != nil {
		return nil, err
	}
	argv := req.Command
	var extra []string
	switch b.typ {
	case TypeShell:
		if len(argv) == 0 {
			argv = b.shell
		}
		extra = shellEnv()
	default:
		if len(argv) == 0 {
			return nil, core.Errorf(core.CodeInvalidArgument, "the exec backend needs a command")
		}
	}
	if argv[0] == "" {
		return nil, core.Errorf(core.CodeInvalidArgument, "empty program name")
	}
	if err := checkDir(req.Dir); err != nil {
		return nil, err
	}
	if sb := b.opts.Sandbox; sb != nil {
		if err := b.checkSandbox(sb); err != nil {
			return nil, err // startCmd wraps argv in the launcher
		}
	}
	marker := req.Marker
	if marker == "" {
		marker = "localpty-" + randomHex(12)
	}
	size := req.Size
	if size.Rows == 0 || size.Cols == 0 {
		size = core.DefaultSize
	}
	sp := spawnSpec{
		argv:   argv,
		env:    buildEnv(b.opts.Term, extra, req.Env, marker),
		dir:    req.Dir,
		size:   size,
		marker: marker,
		noCtty: so.NoControllingTerminal,
	}
	s, err := b.start(sp)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		// Cancelled while starting: undo what we made.
		cctx, cancel := context.WithTimeout(context.Background(), b.opts.CloseGrace+5*time.Second)
		defer cancel()
		cause := wrapErr(core.CodeSpawnFailed, err, "spawn cancelled")
		if cerr := s.Close(cctx); cerr != nil {
			var ce *core.CleanupError
			if errors.As(cerr, &ce) {
				ce.Cause = cause
				return nil, ce
			}
			return nil, &core.CleanupError{Cause: cause, Err: cerr}
		}
		return nil, cause
	}
	return s, nil
}

// spawnSpec is a validated start request.
type spawnSpec struct {
	argv   []string
	env    []string
	dir    string
	size   core.Size
	marker string
	noCtty bool // SpawnOptions.NoControllingTerminal
}

// Compile-time checks of the interfaces sessions implement.
var (
	_ core.Backend        = (*Backend)(nil)
	_ core.BackendSession = (*session)(nil)
	_ core.Prober         = (*session)(nil)
	_ core.TryIO          = (*session)(nil)
)
