package ssh

import (
	"errors"
	"net"
	"strconv"
	"time"
)

// Target says where and how to connect. Pass a *Target as the Options of a
// spawn request of type "ssh".
type Target struct {
	// Host is a host name or IP address. Required.
	Host string
	// Port is the TCP port (22 when zero).
	Port int
	// User is the remote user name. Required.
	User string
	// Auth holds the credentials to offer.
	Auth Auth
	// HostKeys decides which server host keys to trust. The zero value is
	// strict checking against ~/.ssh/known_hosts.
	HostKeys HostKeyPolicy
	// Term is the TERM value of the remote PTY ("xterm-256color" when
	// empty).
	Term string
	// Modes overrides or adds terminal modes of the PTY request (opcodes of
	// RFC 4254 section 8, e.g. golang.org/x/crypto/ssh.ECHO). The backend
	// sends ECHO, ICANON, ISIG, ICRNL, OPOST, ONLCR, the usual control
	// characters and 38400 baud unless overridden here.
	Modes map[uint8]uint32
	// NoPTY runs the program without a PTY (stdout and stderr still merge
	// into the session's output). Window changes then do nothing, and
	// signals cannot fall back to control characters.
	NoPTY bool
	// DialTimeout bounds the TCP connect and the SSH handshake on top of the
	// caller's context (15s when zero).
	DialTimeout time.Duration
	// KeepaliveInterval is how often an idle shared connection is probed
	// (15s when zero; negative disables keepalives).
	KeepaliveInterval time.Duration
	// KeepaliveTimeout is how long a probe may wait for its answer before
	// the connection is declared lost (3 x KeepaliveInterval when zero).
	KeepaliveTimeout time.Duration
	// CloseGrace is how long Close waits for the remote program to exit
	// after hanging it up, before it closes the channel regardless (2s
	// when zero).
	CloseGrace time.Duration
}

const (
	defaultPort       = 22
	defaultTerm       = "xterm-256color"
	defaultDialTO     = 15 * time.Second
	defaultKeepalive  = 15 * time.Second
	defaultCloseGrace = 2 * time.Second
)

func (t *Target) port() int {
	if t.Port == 0 {
		return defaultPort
	}
	return t.Port
}

// Addr returns "host:port".
func (t *Target) Addr() string { return net.JoinHostPort(t.Host, strconv.Itoa(t.port())) }

func (t *Target) validate() error {
	switch {
	case t == nil:
		return errors.New("ssh: no target")
	case t.Host == "":
		return errors.New("ssh: target has no host")
	case t.User == "":
		return errors.New("ssh: target has no user")
	case t.Port < 0 || t.Port > 65535:
		return errors.New("ssh: target port out of range")
	}
	return nil
}

func (t *Target) term() string {
	if t.Term == "" {
		return defaultTerm
	}
	return t.Term
}

func (t *Target) dialTimeout() time.Duration {
	if t.DialTimeout <= 0 {
		return defaultDialTO
	}
	return t.DialTimeout
}

func (t *Target) keepalive() (interval, timeout time.Duration) {
	interval = t.KeepaliveInterval
	if interval == 0 {
		interval = defaultKeepalive
	}
	timeout = t.KeepaliveTimeout
	if timeout <= 0 {
		timeout = 3 * interval
	}
	return interval, timeout
}

func (t *Target) closeGrace() time.Duration {
	if t.CloseGrace <= 0 {
		return defaultCloseGrace
	}
	return t.CloseGrace
}
