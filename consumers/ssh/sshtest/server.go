package sshtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Server is a running test server. Create it with NewServer and stop it
// with Close.
type Server struct {
	// Addr is the listening address, "127.0.0.1:PORT".
	Addr string

	cfg      Config
	sshCfg   *gossh.ServerConfig
	ln       net.Listener
	hostKey  gossh.Signer
	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	closed   bool
	nConns   int
	nSession int
	nBadPass int
	wg       sync.WaitGroup
}

// NewServer starts a server on a free loopback port.
func NewServer(cfg Config) (*Server, error) {
	hk := cfg.HostKey
	if hk == nil {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		if hk, err = gossh.NewSignerFromKey(priv); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: ln.Addr().String(), cfg: cfg, ln: ln, hostKey: hk, conns: map[net.Conn]struct{}{}}
	s.sshCfg = s.serverConfig()
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

func (s *Server) serverConfig() *gossh.ServerConfig {
	cfg := &s.cfg
	sc := &gossh.ServerConfig{}
	sc.AddHostKey(s.hostKey)
	for _, k := range cfg.ExtraHostKeys {
		sc.AddHostKey(k)
	}
	if cfg.Banner != "" {
		sc.BannerCallback = func(gossh.ConnMetadata) string { return cfg.Banner }
	}
	// A connection is counted when its authentication succeeds, before the
	// server tells the client so: once the client's handshake returns, Stats
	// includes it (counting after NewServerConn returned raced the client).
	sc.AuthLogCallback = func(_ gossh.ConnMetadata, method string, err error) {
		if err == nil {
			s.mu.Lock()
			s.nConns++
			s.mu.Unlock()
		} else if method == "password" {
			s.mu.Lock()
			s.nBadPass++
			s.mu.Unlock()
		}
	}
	userOK := func(m gossh.ConnMetadata) bool { return m.User() == cfg.user() }
	if cfg.Password != "" && !cfg.PasswordOnlyKeyboardInteractive {
		sc.PasswordCallback = func(m gossh.ConnMetadata, pw []byte) (*gossh.Permissions, error) {
			if userOK(m) && subtle.ConstantTimeCompare(pw, []byte(cfg.Password)) == 1 {
				return nil, nil
			}
			return nil, errors.New("sshtest: wrong password")
		}
	}
	if len(cfg.Rounds) > 0 || (cfg.Password != "" && cfg.PasswordOnlyKeyboardInteractive) {
		rounds := cfg.Rounds
		if cfg.Password != "" && cfg.PasswordOnlyKeyboardInteractive {
			rounds = append([]Round{{Questions: []Question{{Prompt: "Password: ", Answer: cfg.Password}}}}, rounds...)
		}
		sc.KeyboardInteractiveCallback = func(m gossh.ConnMetadata, ask gossh.KeyboardInteractiveChallenge) (*gossh.Permissions, error) {
			ok := userOK(m)
			for _, r := range rounds {
				qs := make([]string, len(r.Questions))
				echos := make([]bool, len(r.Questions))
				for i, q := range r.Questions {
					qs[i], echos[i] = q.Prompt, q.Echo
				}
				ans, err := ask(m.User(), r.Instruction, qs, echos)
				if err != nil {
					return nil, err
				}
				if len(ans) != len(qs) {
					return nil, errors.New("sshtest: wrong number of answers")
				}
				for i, q := range r.Questions {
					if subtle.ConstantTimeCompare([]byte(ans[i]), []byte(q.Answer)) != 1 {
						ok = false
					}
				}
				if !ok {
					return nil, errors.New("sshtest: wrong answer")
				}
			}
			return nil, nil
		}
	}
	if len(cfg.AuthorizedKeys) > 0 {
		sc.PublicKeyCallback = func(m gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
			if userOK(m) {
				for _, k := range cfg.AuthorizedKeys {
					if bytes.Equal(k.Marshal(), key.Marshal()) {
						return nil, nil
					}
				}
			}
			return nil, errors.New("sshtest: key not authorized")
		}
	}
	return sc
}

// Host returns the listening IP address.
func (s *Server) Host() string {
	h, _, _ := net.SplitHostPort(s.Addr)
	return h
}

// Port returns the listening port.
func (s *Server) Port() int {
	_, p, _ := net.SplitHostPort(s.Addr)
	n, _ := strconv.Atoi(p)
	return n
}

// HostKey returns the server's public host key.
func (s *Server) HostKey() gossh.PublicKey { return s.hostKey.PublicKey() }

// KnownHostsLine returns the known_hosts line that trusts this server.
func (s *Server) KnownHostsLine() string {
	return knownhosts.Line([]string{s.Addr}, s.hostKey.PublicKey())
}

// WriteKnownHosts writes a known_hosts file that trusts this server.
func (s *Server) WriteKnownHosts(path string) error {
	return os.WriteFile(path, []byte(s.KnownHostsLine()+"\n"), 0o600)
}

// Stats counts what the server accepted since it started. A connection or
// session is counted before the client learns it was accepted, so Stats
// called after the client's Dial or NewSession returned includes it.
type Stats struct {
	// Connections counts authenticated connections.
	Connections int
	// Sessions counts session channels opened.
	Sessions int
	// FailedPasswords counts password attempts refused.
	FailedPasswords int
}

// Stats returns the counts so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Connections: s.nConns, Sessions: s.nSession, FailedPasswords: s.nBadPass}
}

// DropConnections closes every open connection abruptly, as a network
// failure would; their programs are hung up and killed. The server keeps
// accepting new connections.
func (s *Server) DropConnections() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		_ = c.Close()
	}
}

// Close stops the server, drops every connection and waits until every
// program it started has exited and every goroutine has returned.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	err := s.ln.Close()
	s.DropConnections()
	s.wg.Wait()
	return err
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			_ = nc.Close()
			return
		}
		s.conns[nc] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serveConn(nc)
	}
}

func (s *Server) serveConn(nc net.Conn) {
	defer s.wg.Done()
	defer func() {
		_ = nc.Close()
		s.mu.Lock()
		delete(s.conns, nc)
		s.mu.Unlock()
	}()
	sc, chans, reqs, err := gossh.NewServerConn(nc, s.sshCfg)
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		gossh.DiscardRequests(reqs)
	}()
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(gossh.UnknownChannelType, fmt.Sprintf("sshtest: no %q channels", nch.ChannelType()))
			continue
		}
		// Counted before Accept confirms the channel to the client, so that
		// Stats includes it once the client's NewSession returns.
		s.mu.Lock()
		s.nSession++
		s.mu.Unlock()
		ch, creqs, err := nch.Accept()
		if err != nil {
			s.mu.Lock()
			s.nSession--
			s.mu.Unlock()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			newSession(s, ch, creqs).serve()
		}()
	}
	_ = sc.Close()
	wg.Wait()
}
