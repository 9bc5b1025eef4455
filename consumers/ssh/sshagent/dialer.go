package sshagent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// Options configure a Dialer.
type Options struct {
	// Binaries maps a far side's platform, "GOOS/GOARCH" ("linux/amd64"),
	// to the local path of a ptyseam binary built for it (static:
	// CGO_ENABLED=0). It is uploaded on first use to the far side's
	// per-user cache and checked by SHA-256 there. The ptyseam command
	// names its own executable for its own platform.
	Binaries map[string]string
	// RemotePath names an agent already installed on the far side (for
	// example /usr/local/bin/ptyseam). When set, nothing is uploaded.
	RemotePath string
	// Logger receives logs. Default slog.Default().
	Logger *slog.Logger
}

// Dialer starts agents over the shared connections of an ssh backend.
type Dialer struct {
	ssh  *ssh.Backend
	opts Options
	log  *slog.Logger

	mu     sync.Mutex
	hashes map[string]hashed
	conns  map[string]*shared // by the target's ShareKey
	closed bool
}

// shared is the agent connection the sessions of one target share.
type shared struct {
	key     string
	ready   chan struct{}
	c       *remote.Conn
	err     error
	pending int // spawns under way on it
}

// New returns a Dialer using b's connection pool.
func New(b *ssh.Backend, opts Options) *Dialer {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Dialer{ssh: b, opts: opts, log: opts.Logger, hashes: map[string]hashed{}, conns: map[string]*shared{}}
}

// Connect installs the agent on t if needed (see Options), starts it on
// an exec channel and connects to it. The Conn is the caller's: closing
// it ends the agent, which closes every session it started.
//
// Errors match remote.ErrAgentMissing (the far side did not start an
// agent; what it said is in the *remote.AgentError), remote.ErrAgentArch
// (no binary for the far side's platform, or one the kernel refuses) and
// remote.ErrAgentVersion.
func (d *Dialer) Connect(ctx context.Context, t *ssh.Target) (*remote.Conn, error) {
	// One connection for the start, an upload and the agent's channel.
	release, err := d.ssh.Hold(ctx, t)
	if err != nil {
		return nil, err
	}
	defer release()
	if d.opts.RemotePath != "" {
		return d.start(ctx, t, agentPlan{path: d.opts.RemotePath}.command(), d.opts.RemotePath)
	}
	// A cached agent starts on one channel: the start script checks it and
	// execs it, or answers why not.
	bins := d.binaries()
	c, err := d.start(ctx, t, startScript(bins), "the agent in the far side's cache")
	var ae *remote.AgentError
	if err == nil || !errors.As(err, &ae) {
		return c, err
	}
	a, ok := parseStartAnswer(ae.Output)
	if !ok { // the agent ran and failed (its words are in err)
		return nil, err
	}
	p, err := plan(a, bins)
	if err != nil {
		return nil, err
	}
	if a.status == startMismatch {
		// The cached file is not the binary its name says (changed or
		// truncated since): upload it again.
		d.log.Warn("sshagent: the cached agent does not match its SHA-256; uploading it again", "host", t.Host, "path", p.path)
	}
	if err := d.upload(ctx, t, p); err != nil {
		return nil, err
	}
	return d.start(ctx, t, p.command(), p.path)
}

// start runs command (which execs the agent at what, or fails) and
// connects to the agent.
func (d *Dialer) start(ctx context.Context, t *ssh.Target, command, what string) (*remote.Conn, error) {
	st, err := d.ssh.Stream(ctx, t, command)
	if err != nil {
		return nil, fmt.Errorf("sshagent: starting the agent: %w", err)
	}
	c, err := remote.Connect(ctx, st)
	if err != nil {
		var ae *remote.AgentError
		if errors.As(err, &ae) {
			// What the far side wrote to stderr says why (not found, Exec
			// format error, a dynamic loader's complaint).
			select {
			case <-st.StderrDone():
			case <-ctx.Done():
			}
			stderr := strings.TrimSpace(st.Stderr())
			out := &remote.AgentError{Kind: ae.Kind, Msg: ae.Msg + " (" + what + ")", Output: strings.TrimSpace(ae.Output + "\n" + stderr)}
			low := strings.ToLower(stderr)
			if strings.Contains(low, "exec format error") || strings.Contains(low, "cannot execute binary file") {
				out.Kind, out.Msg = remote.ErrAgentArch, "the far side's kernel cannot run the agent binary ("+what+"): it is of another architecture"
			}
			err = out
		}
		_ = st.Close()
		return nil, err
	}
	return c, nil
}

// Backend returns a core backend of type typ whose sessions run on the
// agent's agentType backend (remote.AgentShell or remote.AgentExec) on the
// host a spawn request's Options name (an *ssh.Target). The sessions of
// one target share one agent, started on the first spawn and ended when
// its last session is closed, so that nothing stays running there.
func (d *Dialer) Backend(typ, agentType string) core.Backend {
	return &backend{d: d, typ: typ, agentType: agentType}
}

type backend struct {
	d         *Dialer
	typ       string
	agentType string
}

func (b *backend) Type() string { return b.typ }

func (b *backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	t, ok := req.Options.(*ssh.Target)
	if !ok {
		return nil, core.Errorf(core.CodeInvalidArgument, "the %s backend needs an *ssh.Target in Options, got %T", b.typ, req.Options)
	}
	sh, err := b.d.acquire(ctx, t)
	if err != nil {
		return nil, &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: "starting the agent on " + t.Addr(), Err: err}
	}
	s, err := sh.c.Spawn(ctx, b.agentType, req)
	b.d.done(sh)
	return s, err
}

// acquire returns the target's shared agent connection, connecting the
// first time (or after the last one ended), with one spawn counted as
// under way on it.
func (d *Dialer) acquire(ctx context.Context, t *ssh.Target) (*shared, error) {
	key := t.ShareKey()
	for {
		d.mu.Lock()
		if d.closed {
			d.mu.Unlock()
			return nil, errors.New("sshagent: the dialer is closed")
		}
		sh := d.conns[key]
		if sh == nil {
			sh = &shared{key: key, ready: make(chan struct{}), pending: 1}
			d.conns[key] = sh
			d.mu.Unlock()
			c, err := d.Connect(ctx, t)
			d.mu.Lock()
			if err == nil && d.closed { // Close ran while it connected
				d.mu.Unlock()
				_ = c.Close()
				d.mu.Lock()
				c, err = nil, errors.New("sshagent: the dialer is closed")
			}
			sh.c, sh.err = c, err
			if err != nil {
				delete(d.conns, key)
			} else {
				c.OnIdle(func() { d.maybeClose(sh) })
				go func() { // a lost stream: the next spawn connects afresh
					<-c.Done()
					d.mu.Lock()
					if d.conns[key] == sh {
						delete(d.conns, key)
					}
					d.mu.Unlock()
				}()
			}
			close(sh.ready)
			d.mu.Unlock()
			if err != nil {
				return nil, err
			}
			return sh, nil
		}
		select {
		case <-sh.ready:
			if sh.err == nil && sh.c.Err() == nil {
				sh.pending++
				d.mu.Unlock()
				return sh, nil
			}
			if d.conns[key] == sh {
				delete(d.conns, key)
			}
			d.mu.Unlock()
			continue
		default:
		}
		d.mu.Unlock()
		select {
		case <-sh.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// done ends a spawn's claim on sh.
func (d *Dialer) done(sh *shared) {
	d.mu.Lock()
	sh.pending--
	d.mu.Unlock()
	d.maybeClose(sh)
}

// maybeClose ends sh's agent when no session and no spawn uses it.
func (d *Dialer) maybeClose(sh *shared) {
	d.mu.Lock()
	idle := sh.pending == 0 && sh.c.Sessions() == 0
	if idle && d.conns[sh.key] == sh {
		delete(d.conns, sh.key)
	}
	d.mu.Unlock()
	if idle {
		_ = sh.c.Close()
	}
}

// Close ends every shared agent connection (their sessions end with
// remote.ErrConnectionLost; each agent closes what it started) and
// refuses further spawns. A connection still being made is not waited
// for: it is closed as soon as it is made, and its spawn fails.
func (d *Dialer) Close() error {
	d.mu.Lock()
	d.closed = true
	var all []*shared
	for _, sh := range d.conns {
		select {
		case <-sh.ready:
			if sh.c != nil {
				all = append(all, sh)
			}
		default: // its connect closes it (acquire)
		}
	}
	d.conns = map[string]*shared{}
	d.mu.Unlock()
	for _, sh := range all {
		_ = sh.c.Close()
	}
	return nil
}
