package docker

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// Type is the backend type string: spawn requests with Type "docker" reach
// this backend.
const Type = "docker"

// BackendOptions configure a Backend.
type BackendOptions struct {
	// Host is the engine's address ("unix:///var/run/docker.sock",
	// "tcp://host:2376"). Empty uses $DOCKER_HOST, else the default
	// socket.
	Host string
	// AllowedImages, when not empty, is the deployer's allowlist: a
	// Target with another Image is refused with ErrImageNotAllowed.
	AllowedImages []string
	// AllowedContainers, when not empty, is the allowlist of existing
	// containers a Target may name.
	AllowedContainers []string
	// AgentBinary is the host path of a static ptyseam binary for the
	// engine's platform (CGO_ENABLED=0). When set, every session runs on
	// a ptyseam agent inside its container (copied in through the engine's
	// copy API to AgentPath): settling, signals and close then match a
	// local session (docs/docker.md). The container must let the agent
	// be copied in (no read-only root).
	AgentBinary string
	// AgentMount bind-mounts AgentBinary read-only into new containers
	// instead of copying it (the engine must run on this host: the path
	// is the engine's). It saves a copy of the binary per container and
	// works with a read-only root.
	AgentMount bool
	// Logger receives container events (created, removed, stopped under a
	// session). Never terminal bytes. Default: slog.Default().
	Logger *slog.Logger
}

// Backend is the core backend of type "docker". Spawn requests must carry
// a *Target in Options. Create it with NewBackend, register it with
// core.Service.Register, and Close it after the service's shutdown.
type Backend struct {
	cli  *client.Client
	opts BackendOptions
	log  *slog.Logger
}

// NewBackend returns a docker backend. It does not contact the engine:
// the first spawn does, and negotiates the API version then (the engine
// must speak API 1.40 or later).
func NewBackend(opts BackendOptions) (*Backend, error) {
	var o []client.Opt // the client negotiates the API version by itself
	if opts.Host != "" {
		o = append(o, client.WithHost(opts.Host))
	} else {
		o = append(o, client.WithHostFromEnv())
	}
	cli, err := client.New(o...)
	if err != nil {
		return nil, fmt.Errorf("docker: %w", err)
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.Default()
	}
	return &Backend{cli: cli, opts: opts, log: lg}, nil
}

// Type returns "docker".
func (b *Backend) Type() string { return Type }

// Client returns the engine client the backend uses.
func (b *Backend) Client() *client.Client { return b.cli }

// Close releases the engine client's idle connections. Sessions must be
// closed first (the service's Shutdown does).
func (b *Backend) Close() error { return b.cli.Close() }

// Spawn starts a session: in a new container from t.Image, created with
// a TTY, the command as its program under the engine's init process
// (docker-init), and the target's mounts, limits and network (none by
// default); or as an exec with a TTY in the running t.Container. Command
// is an argv run without a shell; an empty Command runs Target.Shell. Env
// adds to Target.Env; Dir overrides Target.WorkingDir. The session's
// output starts with everything the program printed: the backend attaches
// before it starts the program.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	t, ok := req.Options.(*Target)
	if !ok {
		return nil, core.Errorf(core.CodeInvalidArgument, "docker backend needs a *docker.Target in Options, got %T", req.Options)
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if err := remote.CheckAllowed(ErrImageNotAllowed, "image", t.Image, b.opts.AllowedImages); err != nil {
		return nil, err
	}
	if err := remote.CheckAllowed(ErrImageNotAllowed, "container", t.Container, b.opts.AllowedContainers); err != nil {
		return nil, err
	}
	defaults := remote.TargetDefaults{Shell: t.shell(), Term: t.term(), Env: t.Env, Dir: t.WorkingDir}
	sp := spawnParams{t: t, BackendRequest: defaults.Apply(req), shell: len(req.Command) == 0}
	if b.opts.AgentBinary != "" {
		return b.spawnAgent(ctx, sp)
	}
	if t.Image != "" {
		return b.spawnContainer(ctx, sp)
	}
	return b.spawnExec(ctx, sp)
}

// spawnParams is a validated request, with the target's defaults
// applied, and whether it runs the target's shell.
type spawnParams struct {
	t *Target
	core.BackendRequest
	shell bool
}

var _ core.Backend = (*Backend)(nil)
