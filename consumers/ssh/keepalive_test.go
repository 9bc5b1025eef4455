package ssh

import (
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
)

// freezer is a TCP proxy that can stop forwarding without closing
// anything, like a network that silently drops packets.
type freezer struct {
	ln     net.Listener
	frozen atomic.Bool
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  []net.Conn
}

func newFreezer(t *testing.T, target string) *freezer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{ln: ln}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				_ = c.Close()
				continue
			}
			f.mu.Lock()
			f.conns = append(f.conns, c, u)
			f.mu.Unlock()
			f.wg.Add(2)
			go f.pipe(c, u)
			go f.pipe(u, c)
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		f.mu.Lock()
		for _, c := range f.conns {
			_ = c.Close()
		}
		f.mu.Unlock()
		f.wg.Wait()
	})
	return f
}

func (f *freezer) pipe(dst, src net.Conn) {
	defer f.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !f.frozen.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				return
			}
			return
		}
	}
}

func TestKeepaliveDetectsSilentNetwork(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	fz := newFreezer(t, srv.Addr)
	_, port, _ := net.SplitHostPort(fz.ln.Addr().String())
	p, _ := strconv.Atoi(port)
	tg := targetFor(t, srv, "test", Auth{Password: "pw"})
	// known_hosts names the server's own port; trust the proxy's address.
	writeKnownFor(t, tg.HostKeys.KnownHostsFiles[0], "127.0.0.1", p, srv.HostKey())
	tg.Port = p
	// The timeout is long enough for the healthy connection to log in and
	// prompt on a loaded machine (the in-process server answers keepalives
	// from goroutines that share the CPU), short enough to be seen soon
	// once the proxy freezes.
	tg.KeepaliveInterval = 100 * time.Millisecond
	tg.KeepaliveTimeout = 2 * time.Second
	b := newBackend(nil)
	s := spawn(t, b, tg, core.BackendRequest{})
	tm := newTerm(s)
	tm.waitFor(t, `sshtest\$ `, waitLimit)
	fz.frozen.Store(true)
	tm.waitEOF(t, waitLimit)
	if st := s.ExitStatus(); st.Reason != "connection lost" {
		t.Fatalf("status %+v", st)
	}
	closeSession(t, s)
}
