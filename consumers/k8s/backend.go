package k8s

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Type is the backend type string: spawn requests with Type "k8s" reach
// this backend.
const Type = "k8s"

// BackendOptions configure a Backend.
type BackendOptions struct {
	// Kubeconfig is the path of the kubeconfig file to use; empty uses
	// the usual rules ($KUBECONFIG, ~/.kube/config, else the in-cluster
	// configuration of a pod's service account).
	Kubeconfig string
	// Context is the kubeconfig context to use (its current one when
	// empty).
	Context string
	// Config, when set, is used instead of Kubeconfig and Context.
	Config *rest.Config
	// AgentBinary is the host path of a static ptyseam binary for the
	// nodes' platform (CGO_ENABLED=0 GOOS=linux). Required: every session
	// runs on a ptyseam agent inside its pod, copied in over the exec
	// stream and checked by SHA-256 there.
	AgentBinary string
	// AllowedImages, when not empty, is the deployer's allowlist: a
	// Target with another Image is refused with ErrImageNotAllowed.
	AllowedImages []string
	// AllowedPods, when not empty, is the allowlist of existing pods
	// ("namespace/name") a Target may name.
	AllowedPods []string
	// Logger receives pod events (created, deleted, gone under a
	// session). Never terminal bytes. Default: slog.Default().
	Logger *slog.Logger
}

// Backend is the core backend of type "k8s". Spawn requests must carry a
// *Target in Options. Create it with NewBackend, register it with
// core.Service.Register (or Register), and Close it after the service's
// shutdown.
type Backend struct {
	cfg   *rest.Config
	cs    kubernetes.Interface
	opts  BackendOptions
	log   *slog.Logger
	agent agentFile
}

// NewBackend returns a Kubernetes backend. It reads the kubeconfig and
// hashes the agent binary, but does not contact the API server: the
// first spawn does.
func NewBackend(opts BackendOptions) (*Backend, error) {
	if opts.AgentBinary == "" {
		return nil, fmt.Errorf("k8s: BackendOptions.AgentBinary is required (a static ptyseam binary for the nodes)")
	}
	cfg := opts.Config
	if cfg == nil {
		rules := clientcmd.NewDefaultClientConfigLoadingRules()
		if opts.Kubeconfig != "" {
			rules.ExplicitPath = opts.Kubeconfig
		}
		c, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules,
			&clientcmd.ConfigOverrides{CurrentContext: opts.Context}).ClientConfig()
		if err != nil {
			return nil, fmt.Errorf("k8s: loading the kubeconfig: %w", err)
		}
		cfg = c
	}
	cfg = rest.CopyConfig(cfg)
	if cfg.QPS == 0 {
		cfg.QPS, cfg.Burst = 100, 200
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("k8s: %w", err)
	}
	sum, size, err := remote.HashFile(opts.AgentBinary)
	if err != nil {
		return nil, fmt.Errorf("k8s: reading the agent binary: %w", err)
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.Default()
	}
	return &Backend{cfg: cfg, cs: cs, opts: opts, log: lg, agent: agentFile{path: opts.AgentBinary, sum: sum, size: size}}, nil
}

// Register registers a backend with r: the way every backend package is
// registered (core.RegisterAll).
func Register(r core.Registrar, opts BackendOptions) (*Backend, error) {
	b, err := NewBackend(opts)
	if err != nil {
		return nil, err
	}
	if err := core.RegisterAll(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

// Type returns "k8s".
func (b *Backend) Type() string { return Type }

// Client returns the clientset the backend uses.
func (b *Backend) Client() kubernetes.Interface { return b.cs }

// Close releases the client's idle connections. Sessions must be closed
// first (the service's Shutdown does).
func (b *Backend) Close() error {
	closeIdle(b.cfg)
	return nil
}

// Spawn starts a session on an agent in a new pod from t.Image (created
// with the session, deleted by Close) or in the running pod t.Pod.
// Command is an argv run without a shell; an empty Command runs
// Target.Shell, or the agent's interactive bash. Env adds to Target.Env;
// Dir overrides Target.WorkingDir.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	t, ok := req.Options.(*Target)
	if !ok {
		return nil, core.Errorf(core.CodeInvalidArgument, "k8s backend needs a *k8s.Target in Options, got %T", req.Options)
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if err := remote.CheckAllowed(ErrImageNotAllowed, "image", t.Image, b.opts.AllowedImages); err != nil {
		return nil, err
	}
	if err := remote.CheckAllowed(ErrImageNotAllowed, "pod", t.podPath(), b.opts.AllowedPods); err != nil {
		return nil, err
	}
	defaults := remote.TargetDefaults{Shell: t.Shell, Term: t.term(), Env: t.Env, Dir: t.WorkingDir}
	return b.spawn(ctx, spawnParams{t: t, BackendRequest: defaults.Apply(req), shell: len(req.Command) == 0})
}

// spawnParams is a validated request, with the target's defaults
// applied, and whether it runs the target's shell (or the agent's).
type spawnParams struct {
	t *Target
	core.BackendRequest
	shell bool
}

var _ core.Backend = (*Backend)(nil)
