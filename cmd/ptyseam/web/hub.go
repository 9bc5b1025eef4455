// Package web serves ptyseam's watch page: a person lists the sessions of
// every owner of one server, watches each live as a terminal (xterm.js in
// the browser), takes control of one, types, and hands it back.
//
// A [Hub] follows every session of a [core.Service] (plug its OnSpawn and
// OnEvent into core.Options); [Handler] serves the page, its JSON listing
// and one WebSocket per watched terminal, behind a token or a one-time
// link ([Auth]).
package web

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Default bounds of a [Hub].
const (
	// DefaultHistoryBytes is the raw output kept per session, replayed to
	// a viewer that opens the session late.
	DefaultHistoryBytes = 256 << 10
	// DefaultMaxViewers bounds the WebSocket connections open at once.
	DefaultMaxViewers = 16
	// DefaultViewerQueue bounds the output queued for one viewer that
	// reads slower than the session prints: past it the viewer is
	// disconnected (it may reconnect and get the history again).
	DefaultViewerQueue = 4 << 20
	// DefaultMaxListed bounds the sessions one listing returns.
	DefaultMaxListed = 500
)

// Options configure a [Hub]. The zero value is usable.
type Options struct {
	// HistoryBytes bounds the raw output kept per session. Default
	// DefaultHistoryBytes.
	HistoryBytes int
	// MaxViewers bounds the WebSocket connections open at once; one past
	// it is refused with 503. Default DefaultMaxViewers.
	MaxViewers int
	// ViewerQueue bounds the bytes queued for one viewer. Default
	// DefaultViewerQueue.
	ViewerQueue int
	// ReadOnly turns taking control off: the page only watches.
	ReadOnly bool
	// RecordDir, when set, is the folder of the server's recordings
	// (core/record): the page lists them and replays them with
	// asciinema-player.
	RecordDir string
}

func (o Options) withDefaults() Options {
	if o.HistoryBytes <= 0 {
		o.HistoryBytes = DefaultHistoryBytes
	}
	if o.MaxViewers <= 0 {
		o.MaxViewers = DefaultMaxViewers
	}
	if o.ViewerQueue <= 0 {
		o.ViewerQueue = DefaultViewerQueue
	}
	return o
}

// Hub follows every session of one service for the watch page: it keeps
// each session's recent raw output for viewers that join late and fans
// new output out to the viewers watching.
type Hub struct {
	svc   *core.Service
	jobOf func(core.SessionID) (string, bool) // see NameJobs
	opts  Options

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	sessions map[core.SessionID]*watched
	viewers  int
	closed   bool
}

// watched is one session the hub follows.
type watched struct {
	id      core.SessionID
	owner   *core.Owner
	created time.Time
	typ     string
	command []string
	tap     *core.Tap

	mu       sync.Mutex
	hist     []byte // the newest raw output, at most opts.HistoryBytes
	ended    bool   // the output ended (the program exited)
	lastWait core.WaitReason
	subs     map[*viewer]struct{}
	control  *core.Control // held through this page, if any
	holder   *viewer       // the viewer holding control
	changed  chan struct{} // closed and replaced on a change of state
}

// NewHub returns a hub. Bind it to the service it follows before the
// first session starts: core.Options{OnSpawn: hub.OnSpawn, OnEvent:
// hub.OnEvent}, then hub.Bind(svc).
func NewHub(opts Options) *Hub {
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{opts: opts.withDefaults(), ctx: ctx, cancel: cancel, sessions: make(map[core.SessionID]*watched)}
}

// Bind sets the service whose sessions the hub shows.
func (h *Hub) Bind(svc *core.Service) { h.svc = svc }

// NameJobs sets how the listing names a job: jobOf returns the id the
// job's owner knows (job_...) for a job's session. Call it before serving.
func (h *Hub) NameJobs(jobOf func(core.SessionID) (string, bool)) { h.jobOf = jobOf }

// OnSpawn starts following a new session (core.Options.OnSpawn).
func (h *Hub) OnSpawn(info core.SessionInfo, owner *core.Owner, tap *core.Tap) {
	w := &watched{id: info.ID, owner: owner, created: info.Created, typ: info.Type, command: info.Command, tap: tap, subs: make(map[*viewer]struct{}), changed: make(chan struct{})}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		tap.Close()
		return
	}
	h.sessions[info.ID] = w
	h.wg.Add(1)
	h.mu.Unlock()
	go h.pump(w)
}

// OnEvent notes each send's wait reason and changes of control
// (core.Options.OnEvent).
func (h *Hub) OnEvent(ev core.Event) {
	h.mu.Lock()
	w := h.sessions[ev.Session]
	h.mu.Unlock()
	if w == nil {
		return
	}
	switch ev.Kind {
	case core.EventSettled:
		w.mu.Lock()
		w.lastWait = ev.WaitReason
		w.changedLocked()
		w.mu.Unlock()
	case core.EventTakeOver, core.EventHandBack, core.EventResize:
		w.mu.Lock()
		w.changedLocked()
		w.mu.Unlock()
	}
}

// pump moves a session's output into its history and to its viewers.
func (h *Hub) pump(w *watched) {
	defer h.wg.Done()
	defer w.tap.Close()
	for {
		b, err := w.tap.Next(h.ctx)
		w.mu.Lock()
		if len(b) > 0 {
			w.hist = appendBounded(w.hist, b, h.opts.HistoryBytes)
			for v := range w.subs {
				v.queue(b)
			}
		}
		if err != nil {
			w.ended = true
			w.changedLocked()
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
	}
}

// appendBounded appends b to hist and keeps the newest max bytes.
func appendBounded(hist, b []byte, max int) []byte {
	if len(b) >= max {
		return append(hist[:0], b[len(b)-max:]...)
	}
	if over := len(hist) + len(b) - max; over > 0 {
		hist = append(hist[:0], hist[over:]...)
	}
	return append(hist, b...)
}

func (w *watched) changedLocked() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// SessionView is one row of the watch page's listing.
type SessionView struct {
	Owner   string   `json:"owner"`
	ID      string   `json:"id"`
	Kind    string   `json:"kind"` // "terminal" or "job"
	Type    string   `json:"type"`
	Command []string `json:"command"`
	// ModelID is the id the session's owner knows it by: a job's job_
	// id (see [Hub.NameJobs]), else the session id.
	ModelID  string `json:"modelId"`
	Status   string `json:"status"`
	LastWait string `json:"lastWait"`
	AgeSec   int64  `json:"ageSec"`
	Cols     int    `json:"cols"`
	Rows     int    `json:"rows"`
	// Controller names the person in control, if any.
	Controller string `json:"controller"`
}

// List describes every live session the hub follows, grouped by owner
// (owners in the order of their first session), at most DefaultMaxListed.
// Sessions that were closed are forgotten.
func (h *Hub) List() []SessionView {
	h.mu.Lock()
	all := make([]*watched, 0, len(h.sessions))
	for _, w := range h.sessions {
		all = append(all, w)
	}
	h.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].created.Before(all[j].created) })
	firstOf := map[*core.Owner]int{}
	out := []SessionView{}
	for _, w := range all {
		v, ok := h.view(w)
		if !ok {
			continue
		}
		if _, seen := firstOf[w.owner]; !seen {
			firstOf[w.owner] = len(firstOf)
		}
		out = append(out, v)
	}
	rank := map[string]int{}
	for o, i := range firstOf {
		name, _ := strings.CutSuffix(o.Name(), "/jobs")
		if r, ok := rank[name]; !ok || i < r {
			rank[name] = i
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i].Owner] < rank[out[j].Owner] })
	if len(out) > DefaultMaxListed {
		out = out[:DefaultMaxListed]
	}
	return out
}

// view describes one session, forgetting it (false) once it was closed.
func (h *Hub) view(w *watched) (SessionView, bool) {
	info, err := h.svc.Info(w.owner, w.id)
	if err != nil {
		h.forget(w)
		return SessionView{}, false
	}
	who, _ := h.svc.Controller(w.owner, w.id)
	w.mu.Lock()
	last := w.lastWait
	w.mu.Unlock()
	// The jobs layer runs an owner's jobs under its own owner, named
	// after the model's with "/jobs": list them with the model's.
	kind, owner := "terminal", w.owner.Name()
	if o, ok := strings.CutSuffix(owner, "/jobs"); ok {
		kind, owner = "job", o
	}
	cmd := info.Command
	if info.Title != "" {
		cmd = []string{info.Title}
	}
	if cmd == nil {
		cmd = []string{}
	}
	modelID := string(w.id)
	if kind == "job" && h.jobOf != nil {
		if id, ok := h.jobOf(w.id); ok {
			modelID = id
		}
	}
	return SessionView{
		Owner: owner, ID: string(w.id), ModelID: modelID, Kind: kind, Type: info.Type, Command: cmd,
		Status: info.Status.String(), LastWait: string(last), AgeSec: int64(time.Since(info.Created).Seconds()),
		Cols: int(info.Size.Cols), Rows: int(info.Size.Rows), Controller: who,
	}, true
}

// forget drops a closed session and ends its viewers.
func (h *Hub) forget(w *watched) {
	h.mu.Lock()
	if h.sessions[w.id] == w {
		delete(h.sessions, w.id)
	}
	h.mu.Unlock()
	w.mu.Lock()
	for v := range w.subs {
		v.end("the session was closed")
	}
	w.mu.Unlock()
}

// lookup returns a followed session by id.
func (h *Hub) lookup(id string) *watched {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[core.SessionID(id)]
}

// Close ends every viewer and stops following sessions; it returns once
// the hub's goroutines ended. Control held through the page is handed
// back.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	all := make([]*watched, 0, len(h.sessions))
	for _, w := range h.sessions {
		all = append(all, w)
	}
	h.mu.Unlock()
	h.cancel()
	for _, w := range all {
		w.mu.Lock()
		for v := range w.subs {
			v.end("the server is shutting down")
		}
		c := w.control
		w.mu.Unlock()
		if c != nil {
			c.HandBack()
		}
	}
	h.wg.Wait()
}
