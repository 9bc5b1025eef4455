package docker

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
)

// engineProxy forwards connections on its own unix socket to the engine's,
// so that a test can cut every connection the backend holds to the engine
// (as a network or a daemon restart would) while the engine and the
// container live on, hold requests or the answers to some until it
// releases them, and see when the engine has answered a request.
type engineProxy struct {
	host string // "unix://" + the proxy's socket
	ln   net.Listener
	up   string

	mu        sync.Mutex
	conns     []net.Conn
	held      chan struct{} // non-nil while new requests wait: closed by release
	heldAns   chan struct{} // non-nil while answers to heldMatch wait: closed by releaseAnswers
	heldMatch [][]byte
	answered  []*answerWatch // requests whose answer someone waits for
	// answeredAny are requests, on any connection, whose answer someone
	// waits for
	answeredAny []*answerWatch
	asked       []*answerWatch // requests whose sending someone waits for
	waiting     int            // answers held now
	heldWatches []heldWatch    // someone waits for this many answers held at once
	closed      chan struct{}  // the proxy is shutting down
	// firstRe holds the first request whose request line matches it
	// until firstGo is closed (holdFirstRequest); firstSeen is closed once
	// it is held, and firstLine is its request line.
	firstRe   *regexp.Regexp
	firstSeen chan struct{}
	firstLine string
	firstGo   chan struct{}
	wg        sync.WaitGroup
}

// answerWatch is one awaited request: a request line holding match, on a
// connection accepted after answeredTo; done is closed once the engine's
// answer to it has passed the proxy.
type answerWatch struct {
	match []byte
	done  chan struct{}
	once  sync.Once
}

// heldWatch is closed once n answers are held at the same time.
type heldWatch struct {
	n    int
	done chan struct{}
}

// proxiedBackend returns a backend that reaches the shared test daemon
// through an engine proxy, the proxy (to hold or watch the engine's
// answers) and the daemon; the backend is closed at the test's end.
func proxiedBackend(t testing.TB) (*Backend, *engineProxy, *dockertest.Daemon) {
	t.Helper()
	d := dockertest.Shared(t)
	p := startEngineProxy(t, d)
	b, err := NewBackend(BackendOptions{Host: p.host})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b, p, d
}

func startEngineProxy(t testing.TB, d *dockertest.Daemon) *engineProxy {
	t.Helper()
	dir, err := os.MkdirTemp("", "ptyseam-proxy-") // short: a socket path has 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "engine.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	p := &engineProxy{host: "unix://" + sock, ln: ln, up: strings.TrimPrefix(d.Host, "unix://"), closed: make(chan struct{})}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() {
		_ = ln.Close()
		close(p.closed)
		p.cut()
		p.wg.Wait()
		_ = os.RemoveAll(dir)
	})
	return p
}

func (p *engineProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		watches := append([]*answerWatch(nil), p.answered...)
		asked := append([]*answerWatch(nil), p.asked...)
		p.mu.Unlock()
		p.wg.Add(1)
		go p.forward(c, watches, asked)
	}
}

// forward connects c to the engine and relays both ways: a request waits
// while the proxy holds requests, a watch's done is closed when the
// answer to its request comes back, and an asked watch's once the request
// went to the engine.
func (p *engineProxy) forward(c net.Conn, watches, asked []*answerWatch) {
	defer p.wg.Done()
	u, err := net.Dial("unix", p.up)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, c, u)
	p.mu.Unlock()
	var mu sync.Mutex
	var pending []*answerWatch // asked on this connection, not yet answered
	var lastReq []byte         // the last request's first bytes on this connection
	p.wg.Add(2)
	go p.pipe(u, c, func(b []byte) { // requests, and input on a hijacked stream
		if httpRequest.Match(b) {
			p.wait()
			p.waitFirst(b)
			mu.Lock()
			lastReq = append(lastReq[:0], b[:min(len(b), 512)]...)
			mu.Unlock()
		}
		p.mu.Lock()
		anyConn := append([]*answerWatch(nil), p.answeredAny...)
		p.mu.Unlock()
		mu.Lock()
		defer mu.Unlock()
		for _, w := range anyConn {
			if httpRequest.Match(b) && bytes.Contains(b, w.match) {
				pending = append(pending, w)
			}
		}
		for _, w := range watches {
			if bytes.Contains(b, w.match) {
				pending = append(pending, w)
			}
		}
		for _, w := range asked {
			if httpRequest.Match(b) && bytes.Contains(b, w.match) {
				w.once.Do(func() { close(w.done) })
			}
		}
	})
	go p.pipe(c, u, func([]byte) { // answers
		mu.Lock()
		req := bytes.Clone(lastReq)
		mu.Unlock()
		p.waitAnswer(req)
		mu.Lock()
		defer mu.Unlock()
		for _, w := range pending {
			w.once.Do(func() { close(w.done) })
		}
		pending = nil
	})
}

// pipe copies src to dst, showing each chunk to seen before it forwards
// it.
func (p *engineProxy) pipe(dst, src net.Conn, seen func([]byte)) {
	defer p.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			seen(buf[:n])
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	_ = dst.Close()
	_ = src.Close()
}

// cut closes every connection made so far; new ones are still served.
func (p *engineProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// httpRequest matches the start of an API request (not the bytes of a
// hijacked attach or exec stream).
var httpRequest = regexp.MustCompile(`^(GET|HEAD|POST|PUT|DELETE) /`)

// wait returns once the proxy does not hold requests (or shuts down).
func (p *engineProxy) wait() {
	p.mu.Lock()
	held := p.held
	p.mu.Unlock()
	if held != nil {
		select {
		case <-held:
		case <-p.closed:
		}
	}
}

// hold makes every new API request, on a new connection or on one the
// client keeps alive, wait until release; requests already sent and
// hijacked streams go on.
func (p *engineProxy) hold() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held == nil {
		p.held = make(chan struct{})
	}
}

// release forwards the held requests, and new ones at once.
func (p *engineProxy) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held != nil {
		close(p.held)
		p.held = nil
	}
}

// holdAnswers makes the engine's answers to requests whose first line
// holds one of matches wait until releaseAnswers, on connections old and
// new (the rest of an answer already begun, such as the result of a wait
// call whose headers came back at once, waits too).
func (p *engineProxy) holdAnswers(matches ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.heldAns == nil {
		p.heldAns = make(chan struct{})
		for _, m := range matches {
			p.heldMatch = append(p.heldMatch, []byte(m))
		}
	}
}

// releaseAnswers forwards the held answers.
func (p *engineProxy) releaseAnswers() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.heldAns != nil {
		close(p.heldAns)
		p.heldAns, p.heldMatch = nil, nil
	}
}

// waitAnswer returns once an answer to req may pass.
func (p *engineProxy) waitAnswer(req []byte) {
	p.mu.Lock()
	held, match := p.heldAns, p.heldMatch
	p.mu.Unlock()
	if held == nil {
		return
	}
	line, _, _ := bytes.Cut(req, []byte("\r\n"))
	if !slices.ContainsFunc(match, func(m []byte) bool { return bytes.Contains(line, m) }) {
		return
	}
	p.mu.Lock()
	p.waiting++
	watches := p.heldWatches[:0]
	for _, w := range p.heldWatches {
		if p.waiting >= w.n {
			close(w.done)
			continue
		}
		watches = append(watches, w)
	}
	p.heldWatches = watches
	p.mu.Unlock()
	select {
	case <-held:
	case <-p.closed:
	}
	p.mu.Lock()
	p.waiting--
	p.mu.Unlock()
}

// heldAtOnce returns a channel closed once n answers that holdAnswers
// holds are waiting at the same time (a second request while the first
// one's answer is held).
func (p *engineProxy) heldAtOnce(n int) <-chan struct{} {
	w := heldWatch{n: n, done: make(chan struct{})}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.waiting >= n {
		close(w.done)
	} else {
		p.heldWatches = append(p.heldWatches, w)
	}
	return w.done
}

// answeredTo returns a channel closed once the engine has answered a
// request, on a connection made from now on, whose request line holds
// match (for example "/containers/ID/json", an inspect).
func (p *engineProxy) answeredTo(match string) <-chan struct{} {
	w := &answerWatch{match: []byte(match), done: make(chan struct{})}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answered = append(p.answered, w)
	return w.done
}

// askedFor returns a channel closed once a request whose first bytes
// hold match (for example "/events?") has reached the proxy on its way to
// the engine, on a connection made from now on.
func (p *engineProxy) askedFor(match string) <-chan struct{} {
	w := &answerWatch{match: []byte(match), done: make(chan struct{})}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, w)
	return w.done
}

// answeredToAny returns a channel closed once the engine has answered a
// request sent from now on, on any connection (one the client keeps
// alive too), whose request line holds match (for example
// "/exec/ID/resize").
func (p *engineProxy) answeredToAny(match string) <-chan struct{} {
	w := &answerWatch{match: []byte(match), done: make(chan struct{})}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answeredAny = append(p.answeredAny, w)
	return w.done
}

// holdFirstRequest holds the first request sent from now on, on any
// connection, whose request line matches re, until release is called (or
// the proxy shuts down); held is closed once it is held, and line then
// returns its request line.
func (p *engineProxy) holdFirstRequest(re *regexp.Regexp) (held <-chan struct{}, line func() string, release func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.firstRe, p.firstSeen, p.firstGo = re, make(chan struct{}), make(chan struct{})
	seen := p.firstSeen
	line = func() string {
		<-seen
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.firstLine
	}
	return seen, line, sync.OnceFunc(func() { close(p.firstGo) })
}

// waitFirst holds req if it is the request holdFirstRequest waits for.
func (p *engineProxy) waitFirst(req []byte) {
	line, _, _ := bytes.Cut(req, []byte("\r\n"))
	p.mu.Lock()
	re, seen, release := p.firstRe, p.firstSeen, p.firstGo
	if re == nil || !re.Match(line) {
		p.mu.Unlock()
		return
	}
	p.firstRe, p.firstLine = nil, string(line) // the first one only
	p.mu.Unlock()
	close(seen)
	select {
	case <-release:
	case <-p.closed:
	}
}
