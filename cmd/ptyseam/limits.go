package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/ptyseam/ptyseam/screen"
)

// limits are what every client together may take from the server: the
// per-owner --max-sessions alone let one token holder open one MCP
// session after another. The defaults fit a small machine (one or two
// cores, 1-2 GB of memory).
type limits struct {
	// TotalSessions bounds the live terminals and jobs of every client
	// together (core.Options.MaxSessions).
	TotalSessions int
	// Clients bounds the MCP sessions open at once over HTTP.
	Clients int
	// ScreenCells bounds one screen (rows x cols).
	ScreenCells int
	// ScreenBudget bounds the cells of every screen together: the
	// emulators' memory, about 240 bytes a cell.
	ScreenBudget int
}

// Default server-wide limits.
const (
	defaultTotalSessions = 32
	defaultClients       = 8
)

func (l *limits) flags(fs *flag.FlagSet) {
	fs.IntVar(&l.TotalSessions, "max-total-sessions", defaultTotalSessions, "maximum live sessions (terminals and jobs) of all clients together")
	fs.IntVar(&l.Clients, "max-clients", defaultClients, "maximum MCP sessions open at once over --http (a new one beyond it gets 429)")
	fs.IntVar(&l.ScreenCells, "screen-cells", screen.DefaultMaxCells, "maximum cells (rows x cols) of one terminal screen (pty_resize beyond it is refused)")
	fs.IntVar(&l.ScreenBudget, "screen-budget", screen.DefaultMaxTotalCells, "maximum cells of all screens together (about 240 bytes of emulator memory each)")
}

func (l limits) check() error {
	switch {
	case l.TotalSessions < 1:
		return errors.New("--max-total-sessions must be at least 1")
	case l.Clients < 1:
		return errors.New("--max-clients must be at least 1")
	case l.ScreenCells < 1 || l.ScreenBudget < l.ScreenCells:
		return errors.New("--screen-cells must be positive and --screen-budget at least --screen-cells")
	}
	return nil
}

// clientLimiter refuses a request that would open an MCP session (an
// initialize request without an Mcp-Session-Id header, or one too long to
// look at whole) while max sessions
// are open or being opened. It counts the sessions its initialize requests
// opened (the id the response carries) that the server still has (alive
// reports the ids the server holds): the SDK also holds short-lived
// sessions of its own, which are not clients.
type clientLimiter struct {
	max   int
	alive func() map[string]bool
	next  http.Handler

	mu      sync.Mutex
	opened  map[string]bool
	opening int
}

func (c *clientLimiter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" || !opensSession(r) {
		c.next.ServeHTTP(w, r)
		return
	}
	c.mu.Lock()
	alive := c.alive()
	for id := range c.opened {
		if !alive[id] {
			delete(c.opened, id)
		}
	}
	if len(c.opened)+c.opening >= c.max {
		c.mu.Unlock()
		w.Header().Set("Retry-After", "30")
		http.Error(w, "ptyseam: "+strconv.Itoa(c.max)+" MCP sessions are open, this server's limit (--max-clients): "+
			"end one (HTTP DELETE with its Mcp-Session-Id) or wait for an idle one to time out", http.StatusTooManyRequests)
		return
	}
	c.opening++
	c.mu.Unlock()
	c.next.ServeHTTP(w, r)
	c.mu.Lock()
	c.opening--
	if id := w.Header().Get("Mcp-Session-Id"); id != "" {
		if c.opened == nil {
			c.opened = make(map[string]bool)
		}
		c.opened[id] = true
	}
	c.mu.Unlock()
}

// opensSession reports whether the POST r carries an initialize request
// (alone or in a batch), peeking at up to maxPeek bytes of its body and
// leaving the body intact for the handler.
func opensSession(r *http.Request) bool {
	const maxPeek = 1 << 20
	if r.Body == nil {
		return false
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, maxPeek))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil {
		return false
	}
	if len(head) == maxPeek {
		// Too long to look at whole: counted as an initialize, so that
		// padding cannot carry one past the limit.
		return true
	}
	var one struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(head, &one) == nil {
		return one.Method == "initialize"
	}
	var batch []struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(head, &batch) == nil {
		for _, m := range batch {
			if m.Method == "initialize" {
				return true
			}
		}
	}
	return false
}
