package ssh

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/ptyseam/ptyseam/core"
	gossh "golang.org/x/crypto/ssh"
)

// Type is the backend type string: spawn requests with Type "ssh" reach
// this backend.
const Type = "ssh"

// BackendOptions configure a Backend.
type BackendOptions struct {
	// Logger receives connection events: host, port, user, method names,
	// fingerprints and errors. Never secrets, never terminal bytes.
	// Nil logs nothing: a library logs only to the logger it is given.
	Logger *slog.Logger
}

// Backend is the core backend of type "ssh". Spawn requests must carry a
// *Target in Options. Create it with NewBackend and register it with
// core.Service.Register.
type Backend struct {
	log  *slog.Logger
	pool pool
}

// NewBackend returns an ssh backend.
func NewBackend(opts BackendOptions) *Backend {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Backend{log: lg, pool: pool{conns: map[string]*poolEntry{}, log: lg}}
}

// Type returns "ssh".
func (b *Backend) Type() string { return Type }

// Spawn connects (or reuses a connection to the same host, port, user and
// credentials), opens a session channel with a PTY and starts the login
// shell (empty Command) or the command. Command is an argv: each element
// is quoted for a POSIX shell, so the remote side runs exactly that
// program with exactly those arguments; run a command line with
// []string{"sh", "-c", line}. Env is sent with "env" requests; variables
// the server refuses (OpenSSH accepts only its AcceptEnv names) are
// exported by a POSIX-shell prefix instead, as is a Dir. The remote login
// shell must then be a POSIX shell. Marker is not used: a remote process
// cannot be found by it.
//
// The first session of a new connection starts its output with the
// server's banner, if it sent one (see also Connections).
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	t, ok := req.Options.(*Target)
	if !ok {
		return nil, core.Errorf(core.CodeInvalidArgument, "ssh backend needs a *ssh.Target in Options, got %T", req.Options)
	}
	if err := t.validate(); err != nil {
		return nil, &core.Error{Code: core.CodeInvalidArgument, Op: "spawn", Msg: err.Error()}
	}
	s, err := b.open(ctx, t, req, "")
	if err != nil {
		return nil, err
	}
	s.start()
	return s, nil
}

// open opens a session channel on a shared connection (a further one when
// the server refuses more channels on it), not yet started. The first
// session of a new connection starts with the banner, unless it runs a
// command line (Run), which reports the banner apart.
func (b *Backend) open(ctx context.Context, t *Target, req core.BackendRequest, line string) (*session, error) {
	c, fresh, err := b.pool.acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	s, err := openSession(ctx, c, t, req, line)
	if err != nil && channelRefused(err) && b.pool.retireIfShared(c) {
		// The server refused one more channel on a connection that carries
		// others: its per-connection session limit (OpenSSH's MaxSessions,
		// 10 by default). Later spawns go to a further connection; this
		// one lives on for its sessions and closes with the last of them.
		b.pool.release(c)
		b.log.Info("ssh connection full, opening another", "host", t.Host, "port", t.port(), "user", t.User, "err", err)
		if c, _, err = b.pool.acquire(ctx, t); err != nil {
			return nil, err
		}
		fresh = false // the banner showed on the first connection
		if s, err = openSession(ctx, c, t, req, line); err != nil && channelRefused(err) {
			err = &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Err: err,
				Msg: "the server refused a session channel on a full connection and on a new one: its session limit was reached (raise MaxSessions or MaxStartups in sshd_config, or close sessions)"}
		}
	}
	if err != nil {
		b.pool.release(c)
		b.log.Info("ssh session failed", "host", t.Host, "port", t.port(), "user", t.User, "err", err)
		return nil, err
	}
	s.release = func() { b.pool.release(c) }
	if fresh && c.banner != "" && line == "" {
		s.relay.Prepend(bannerBytes(c.banner))
	}
	return s, nil
}

// ConnInfo describes a shared connection.
type ConnInfo struct {
	Host string
	Port int
	User string
	// Banner is the text the server sent before authentication.
	Banner string
	// ServerVersion is the server's identification ("SSH-2.0-OpenSSH_9.2p1 ...").
	ServerVersion string
	// HostKeyFingerprint is the SHA256 fingerprint of the verified host key.
	HostKeyFingerprint string
	// Sessions counts the sessions using the connection.
	Sessions int
}

// Connections describes the live connections.
func (b *Backend) Connections() []ConnInfo {
	b.pool.mu.Lock()
	defer b.pool.mu.Unlock()
	var out []ConnInfo
	for c := range b.pool.live {
		if c.isDead() {
			continue
		}
		out = append(out, ConnInfo{Host: c.target.Host, Port: c.target.port(), User: c.target.User,
			Banner: c.banner, ServerVersion: c.server, HostKeyFingerprint: c.hostFP, Sessions: c.refs})
	}
	return out
}

// bannerBytes renders a banner for the terminal stream: CRLF line ends and
// a final line end.
func bannerBytes(banner string) []byte {
	out := make([]byte, 0, len(banner)+8)
	for i := 0; i < len(banner); i++ {
		if banner[i] == '\n' && (i == 0 || banner[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, banner[i])
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\r', '\n')
	}
	return out
}

var _ core.Backend = (*Backend)(nil)

func errSpawn(format string, args ...any) error {
	return &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: fmt.Sprintf(format, args...)}
}

// channelRefused reports that the server refused to open a session channel
// (OpenSSH 9.2 past MaxSessions logs "no more sessions" and answers
// "connect failed: open failed"), rather than the connection failing.
func channelRefused(err error) bool {
	var oe *gossh.OpenChannelError
	return errors.As(err, &oe) && oe.Reason != gossh.UnknownChannelType
}
