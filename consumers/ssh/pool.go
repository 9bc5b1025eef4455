package ssh

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// conn is one shared, authenticated connection.
type conn struct {
	key    string
	target Target // the target that dialed (for logs and info)
	client *gossh.Client
	banner string
	server string
	hostFP string
	log    *slog.Logger

	refs int // guarded by pool.mu

	dead      chan struct{} // closed when the connection ended
	deadMu    sync.Mutex
	lostCause string
	stop      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup // goroutines tied to the connection
}

// lost closes the connection because it stopped answering.
func (c *conn) lost(cause string) {
	c.deadMu.Lock()
	if c.lostCause == "" {
		c.lostCause = cause
	}
	c.deadMu.Unlock()
	_ = c.client.Close()
}

func (c *conn) cause() string {
	c.deadMu.Lock()
	defer c.deadMu.Unlock()
	return c.lostCause
}

// shutdown closes the connection and waits for its goroutines.
func (c *conn) shutdown() {
	c.closeOnce.Do(func() {
		close(c.stop)
		_ = c.client.Close()
	})
	c.wg.Wait()
}

func (c *conn) isDead() bool {
	select {
	case <-c.dead:
		return true
	default:
		return false
	}
}

// goTracked runs fn in a goroutine that the connection's shutdown waits for.
func (c *conn) goTracked(fn func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		fn()
	}()
}

// roundTrip sends the server a request it answers (a keepalive; any
// answer, a refusal too, will do) and returns a channel that gets nil
// once the answer came, or the error when the connection ended first.
// The answer travels behind everything the server sent before it.
func (c *conn) roundTrip() <-chan error {
	res := make(chan error, 1)
	c.goTracked(func() {
		_, _, err := c.client.SendRequest(keepaliveRequest, true, nil)
		res <- err
	})
	return res
}

// keepaliveRequest is the global request OpenSSH's clients send to see
// that a server is alive.
const keepaliveRequest = "keepalive@openssh.com"

func (c *conn) keepalive(interval, timeout time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.dead:
			return
		case <-t.C:
		}
		res := make(chan error, 1)
		go func() {
			// Any answer, even a refusal, proves the peer is alive.
			_, _, err := c.client.SendRequest(keepaliveRequest, true, nil)
			res <- err
		}()
		timer := time.NewTimer(timeout)
		select {
		case err := <-res:
			timer.Stop()
			if err != nil {
				c.lost("keepalive failed")
				return
			}
		case <-timer.C:
			c.lost("keepalive timed out")
			<-res // the closed connection ends the request
			return
		case <-c.stop:
			timer.Stop()
			<-res
			return
		}
	}
}

// pool shares connections.
type pool struct {
	mu    sync.Mutex
	conns map[string]*poolEntry
	// live holds every connection with sessions, including those taken
	// out of conns because the server would open no more channels on them.
	live map[*conn]struct{}
	log  *slog.Logger
	// dialNet opens the network connection to addr; nil is a TCP dial.
	// An in-package test sets it to reach an in-process server.
	dialNet func(ctx context.Context, addr string) (net.Conn, error)
}

type poolEntry struct {
	ready chan struct{}
	c     *conn
	err   error
}

// shareKey identifies the connections a target may share: the same
// host, port and user, offered the same credentials. Secrets enter only
// through a hash. Credentials given as callbacks cannot be compared, so a
// target with such callbacks shares only with itself (the same *Target).
func shareKey(t *Target) string {
	h := sha256.New()
	w := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s;", len(p), p)
		}
	}
	w(t.Host, fmt.Sprint(t.port()), t.User, t.Auth.Password, t.Auth.AgentSocket, fmt.Sprint(t.Auth.Agent))
	w(t.Auth.KeyFiles...)
	for _, s := range t.Auth.Signers {
		w(string(s.PublicKey().Marshal()))
	}
	w(t.HostKeys.files()...)
	w(fmt.Sprint(t.HostKeys.AcceptNew), t.HostKeys.WriteFile)
	if t.Auth.KeyboardInteractive != nil || t.Auth.Passphrase != nil || t.HostKeys.Callback != nil {
		w(fmt.Sprintf("%p", t))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// acquire returns a live connection for t, dialing if needed, and whether
// this call dialed it.
func (p *pool) acquire(ctx context.Context, t *Target) (*conn, bool, error) {
	key := shareKey(t)
	for {
		if err := ctx.Err(); err != nil {
			return nil, false, &DialError{Addr: t.Addr(), Err: err}
		}
		p.mu.Lock()
		e := p.conns[key]
		switch {
		case e == nil:
			e = &poolEntry{ready: make(chan struct{})}
			p.conns[key] = e
			p.mu.Unlock()
			c, err := dial(ctx, t, key, p.log, p.dialNet)
			p.mu.Lock()
			if err != nil {
				e.err = err
				delete(p.conns, key)
			} else {
				e.c = c
				c.refs = 1
				if p.live == nil {
					p.live = map[*conn]struct{}{}
				}
				p.live[c] = struct{}{}
				c.goTracked(func() { p.watch(c) })
			}
			close(e.ready)
			p.mu.Unlock()
			return c, err == nil, err
		case e.c != nil && !e.c.isDead():
			e.c.refs++
			p.mu.Unlock()
			return e.c, false, nil
		case e.c != nil:
			delete(p.conns, key)
			p.mu.Unlock()
			continue
		}
		p.mu.Unlock()
		select {
		case <-e.ready:
			// Either it is ready now, or that dial failed and this call
			// tries with its own context.
		case <-ctx.Done():
			return nil, false, &DialError{Addr: t.Addr(), Err: ctx.Err()}
		}
	}
}

// watch removes a dead connection from the pool so new spawns dial again.
func (p *pool) watch(c *conn) {
	select {
	case <-c.dead:
	case <-c.stop:
		return
	}
	p.mu.Lock()
	if e := p.conns[c.key]; e != nil && e.c == c {
		delete(p.conns, c.key)
	}
	p.mu.Unlock()
}

// retireIfShared takes c out of the pool when other sessions use it, so
// that the next acquire dials a further connection, and reports whether
// it did. A connection the caller alone uses stays: its refusal is not
// about a per-connection limit.
func (p *pool) retireIfShared(c *conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.refs <= 1 {
		return false
	}
	if e := p.conns[c.key]; e != nil && e.c == c {
		delete(p.conns, c.key)
	}
	return true
}

// release drops one reference and closes the connection with the last.
func (p *pool) release(c *conn) {
	p.mu.Lock()
	c.refs--
	last := c.refs == 0
	if last {
		if e := p.conns[c.key]; e != nil && e.c == c {
			delete(p.conns, c.key)
		}
		delete(p.live, c)
	}
	p.mu.Unlock()
	if last {
		c.shutdown()
		c.log.Debug("ssh connection closed", "host", c.target.Host, "port", c.target.port(), "user", c.target.User)
	}
}

// dial connects and authenticates, bounded by ctx and t.DialTimeout.
func dial(ctx context.Context, t *Target, key string, log *slog.Logger, dialNet func(context.Context, string) (net.Conn, error)) (*conn, error) {
	addr := t.Addr()
	logArgs := []any{"host", t.Host, "port", t.port(), "user", t.User}
	hk, err := newHostKeyChecker(&t.HostKeys, addr)
	if err != nil {
		return nil, &DialError{Addr: addr, Err: err}
	}
	// Loading keys (a passphrase's key derivation is slow on purpose) is
	// bounded by ctx but not by the dial timeout, which is for the network.
	st := &authState{}
	defer st.close()
	methods, err := t.Auth.methods(ctx, st)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return nil, &DialError{Addr: addr, Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, t.dialTimeout())
	defer cancel()
	var banner strings.Builder
	cfg := &gossh.ClientConfig{
		User:              t.User,
		Auth:              methods,
		HostKeyCallback:   hk.check,
		HostKeyAlgorithms: hk.algorithms(addr),
		Config:            gossh.Config{Ciphers: clientCiphers()},
		BannerCallback: func(msg string) error {
			banner.WriteString(msg)
			return nil
		},
	}
	if dialNet == nil {
		dialNet = func(ctx context.Context, addr string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		}
	}
	nc, err := dialNet(ctx, addr)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		log.Info("ssh dial failed", append(logArgs, "err", err)...)
		return nil, &DialError{Addr: addr, Err: err}
	}
	// Closing the socket is what aborts a handshake when ctx ends.
	stop := context.AfterFunc(ctx, func() { _ = nc.Close() })
	sc, chans, reqs, err := gossh.NewClientConn(newReadBufferedConn(nc), addr, cfg)
	aborted := !stop()
	if err == nil && aborted {
		_ = sc.Close()
		err = ctx.Err()
	}
	if err != nil {
		_ = nc.Close()
		err = classifyDialError(ctx, t, addr, hk, st, err)
		log.Info("ssh login failed", append(logArgs, "err", err)...)
		return nil, err
	}
	c := &conn{
		key:    key,
		target: *t,
		client: gossh.NewClient(sc, chans, reqs),
		banner: banner.String(),
		server: string(sc.ServerVersion()),
		log:    log,
		dead:   make(chan struct{}),
		stop:   make(chan struct{}),
	}
	if hk.accepted != nil {
		c.hostFP = gossh.FingerprintSHA256(hk.accepted)
	}
	c.goTracked(func() {
		err := c.client.Wait()
		c.deadMu.Lock()
		if c.lostCause == "" {
			select {
			case <-c.stop:
				c.lostCause = "closed"
			default:
				c.lostCause = "connection lost"
				if err != nil {
					c.lostCause = "connection lost: " + err.Error()
				}
			}
		}
		c.deadMu.Unlock()
		close(c.dead)
	})
	if interval, timeout := t.keepalive(); interval > 0 {
		c.goTracked(func() { c.keepalive(interval, timeout) })
	}
	log.Info("ssh connected", append(logArgs, "methods", st.list(), "server", c.server, "hostkey", c.hostFP)...)
	return c, nil
}

func classifyDialError(ctx context.Context, t *Target, addr string, hk *hostKeyChecker, st *authState, err error) error {
	var uh *UnknownHostError
	var hc *HostKeyChangedError
	var hr *HostKeyRevokedError
	switch {
	case errors.As(err, &uh), errors.As(err, &hc), errors.As(err, &hr):
		// Return the typed error itself, without the library's wrapping.
		if uh != nil {
			return uh
		}
		if hc != nil {
			return hc
		}
		return hr
	case ctx.Err() != nil:
		return &DialError{Addr: addr, Err: ctx.Err()}
	case hk.checked && strings.Contains(err.Error(), "unable to authenticate"):
		return &AuthError{User: t.User, Host: addr, Tried: st.list(), Err: err}
	case hk.checked && len(st.list()) > 0:
		// The server hung up during authentication (for example after
		// too many failures).
		return &AuthError{User: t.User, Host: addr, Tried: st.list(), Err: err}
	}
	return &DialError{Addr: addr, Err: err}
}
