package pipebackend

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// Register registers a pipe backend with default options.
func Register(svc core.Registrar) (unregister func(), err error) {
	return svc.Register(New(Options{}))
}

// Backend is the "pipe" backend. Its sessions implement
// [core.BackendSession] and [core.Prober] (for its Enter key alone).
type Backend struct {
	opts Options
}

// New returns a pipe backend.
func New(o Options) *Backend { return &Backend{opts: o.withDefaults()} }

// Type returns "pipe".
func (b *Backend) Type() string { return Type }

// Spawn starts req.Command (argv, which must not be empty) with pipes for
// stdin and for the merged stdout and stderr, in a new process group, in
// req.Dir, with the service's environment plus req.Env plus the session
// marker. req.Size is ignored and req.Options must be nil. An empty command
// or unusable Dir is a CodeInvalidArgument error and a program that cannot
// be started a CodeSpawnFailed error; both wrap the OS error and leave
// nothing behind. A ctx that ends while the program starts tears it down
// again.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	if len(req.Command) == 0 || req.Command[0] == "" {
		return nil, core.Errorf(core.CodeInvalidArgument, "the pipe backend needs a command")
	}
	if req.Options != nil {
		return nil, core.Errorf(core.CodeInvalidArgument, "the pipe backend takes no options, got %T", req.Options)
	}
	if req.Dir != "" {
		fi, err := os.Stat(req.Dir)
		if err == nil && !fi.IsDir() {
			err = errors.New("not a directory")
		}
		if err != nil {
			return nil, &core.Error{Code: core.CodeInvalidArgument, Msg: "unusable working directory " + req.Dir, Err: err}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, &core.Error{Code: core.CodeSpawnFailed, Msg: "cannot make the input pipe", Err: err}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, &core.Error{Code: core.CodeSpawnFailed, Msg: "cannot make the output pipe", Err: err}
	}
	env := buildEnv(req.Env, req.Marker)
	newCmd := func() *exec.Cmd {
		cmd := exec.Command(req.Command[0], req.Command[1:]...)
		cmd.Dir = req.Dir
		cmd.Env = env
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, outW
		cmd.SysProcAttr = sysProcAttr()
		return cmd
	}
	// SIGINT must reach a job even when this process ignores it.
	localpty.DefaultChildSignals()
	var cmd *exec.Cmd
	var leaf *localpty.Leaf
	if b.opts.DisableCgroup {
		cmd = newCmd()
		err = localpty.StartChild(cmd)
	} else {
		cmd, leaf, err = localpty.StartInLeaf(newCmd, b.opts.Logger)
	}
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, &core.Error{Code: core.CodeSpawnFailed, Msg: "cannot start " + req.Command[0], Err: err}
	}
	closeAll(inR, outW) // the child has its copies
	grp, err := newProcGroup(cmd)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = localpty.WaitChild(cmd)
		_ = leaf.Kill()
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), spawnCleanupTimeout)
		_ = leaf.Remove(rctx)
		cancel()
		closeAll(inW, outR)
		return nil, &core.Error{Code: core.CodeSpawnFailed, Msg: "cannot group the processes of " + req.Command[0], Err: err}
	}
	s := newSession(b.opts, cmd, grp, leaf, inW, outR, req.Marker)
	b.opts.Logger.Debug("pipebackend: started", "pid", s.pid)
	if err := ctx.Err(); err != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), spawnCleanupTimeout)
		defer cancel()
		if cerr := s.Close(cctx); cerr != nil {
			var ce *core.CleanupError
			if errors.As(cerr, &ce) {
				ce.Cause = err
				return nil, ce
			}
			return nil, &core.CleanupError{Cause: err, Err: cerr}
		}
		return nil, err
	}
	return s, nil
}

// spawnCleanupTimeout bounds the teardown of a spawn whose ctx ended.
const spawnCleanupTimeout = 10 * time.Second

func buildEnv(extra []string, marker string) []string {
	base := os.Environ()
	env := make([]string, 0, len(base)+len(extra)+1)
	env = append(env, base...)
	env = append(env, extra...)
	if marker != "" {
		env = append(env, MarkerEnv+"="+marker)
	}
	return env
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}
