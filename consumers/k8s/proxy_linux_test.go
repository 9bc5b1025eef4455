package k8s

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// apiProxy is a loopback TCP proxy in front of the API server that a
// test cuts: cut closes every connection and refuses new ones until
// restore.
type apiProxy struct {
	addr    string // host:port clients dial
	backend string // the API server's host:port

	mu    sync.Mutex
	l     net.Listener
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

// startAPIProxy starts a proxy to the API server at server (a URL),
// stopped when t ends.
func startAPIProxy(t testing.TB, server string) *apiProxy {
	t.Helper()
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &apiProxy{addr: l.Addr().String(), backend: u.Host, conns: map[net.Conn]bool{}}
	p.serve(l)
	t.Cleanup(func() { p.cut(); p.wg.Wait() })
	return p
}

func (p *apiProxy) serve(l net.Listener) {
	p.mu.Lock()
	p.l = l
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.forward(c)
		}
	}()
}

// forward pipes c to a new connection to the API server.
func (p *apiProxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.backend)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	if p.l == nil { // cut meanwhile
		p.mu.Unlock()
		_ = c.Close()
		_ = up.Close()
		return
	}
	p.conns[c], p.conns[up] = true, true
	p.mu.Unlock()
	pipe := func(dst, src net.Conn) {
		defer p.wg.Done()
		_, _ = io.Copy(dst, src)
		_ = dst.Close()
		_ = src.Close()
	}
	p.wg.Add(2)
	go pipe(c, up)
	go pipe(up, c)
}

// cut closes the listener and every connection: clients see their
// connections reset and new ones refused.
func (p *apiProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.l != nil {
		_ = p.l.Close()
		p.l = nil
	}
	for c := range p.conns {
		_ = c.Close()
	}
	clear(p.conns)
}

// restore listens again on the same address.
func (p *apiProxy) restore(t testing.TB) {
	t.Helper()
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.serve(l)
}
