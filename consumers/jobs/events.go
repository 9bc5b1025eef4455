package jobs

import (
	"log/slog"
	"sync"
)

// EventKind names an event.
type EventKind string

// Event kinds, as the seed names them.
const (
	EventCreated EventKind = "created" // a job was launched
	EventData    EventKind = "data"    // a job produced output
	EventExit    EventKind = "exit"    // a job ended
	EventDropped EventKind = "dropped" // a job's record was dropped
)

// Event is what subscribers receive.
type Event struct {
	Kind EventKind
	// ID, Group and Title name the job.
	ID, Group, Title string
	// Bytes is, for a data event, how many raw output bytes arrived since
	// the previous data event of this job that this subscriber got.
	Bytes int64
	// Missed counts data events this subscriber lost because it fell more
	// than SubscriberQueue events behind. Created, exit and dropped events
	// are never lost.
	Missed int64
	// Info is the job's snapshot for created, exit and dropped events (for
	// exit: its final state, exit code or signal, stop reason).
	Info Info
}

// SubscriberQueue bounds the events waiting for one subscriber; beyond it,
// data events are counted in Missed instead of queued, so a slow subscriber
// never blocks a job's output or the other subscribers.
const SubscriberQueue = 1024

// Subscribe calls fn for every event of the given kinds (all kinds when
// none are given), in order, on a goroutine of its own. It returns the
// unsubscribe function; after it returns, fn is not called again unless
// a call is already running. A panic in fn is recovered and logged.
// Subscribing to a manager that was shut down returns a no-op.
func (m *Manager) Subscribe(fn func(Event), kinds ...EventKind) (unsubscribe func()) {
	return m.hub.subscribe(fn, kinds)
}

// OnExit subscribes fn to exit events.
func (m *Manager) OnExit(fn func(Event)) (unsubscribe func()) {
	return m.Subscribe(fn, EventExit)
}

// OnCreated subscribes fn to created events.
func (m *Manager) OnCreated(fn func(Event)) (unsubscribe func()) {
	return m.Subscribe(fn, EventCreated)
}

// OnData subscribes fn to data events.
func (m *Manager) OnData(fn func(Event)) (unsubscribe func()) {
	return m.Subscribe(fn, EventData)
}

// OnDropped subscribes fn to dropped events.
func (m *Manager) OnDropped(fn func(Event)) (unsubscribe func()) {
	return m.Subscribe(fn, EventDropped)
}

type hub struct {
	log    *slog.Logger
	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	closed bool
	wg     sync.WaitGroup
}

type subscriber struct {
	hub   *hub
	fn    func(Event)
	kinds map[EventKind]bool // nil: all

	mu      sync.Mutex
	queue   []Event
	missed  int64
	stopped bool // unsubscribed: drop the queue
	closing bool // hub closed: deliver the queue, then end
	wake    chan struct{}
}

func newHub(log *slog.Logger) *hub {
	return &hub{log: log, subs: make(map[*subscriber]struct{})}
}

func (h *hub) subscribe(fn func(Event), kinds []EventKind) func() {
	if fn == nil {
		return func() {}
	}
	s := &subscriber{hub: h, fn: fn, wake: make(chan struct{}, 1)}
	if len(kinds) > 0 {
		s.kinds = make(map[EventKind]bool, len(kinds))
		for _, k := range kinds {
			s.kinds[k] = true
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return func() {}
	}
	h.subs[s] = struct{}{}
	h.wg.Add(1)
	go s.run()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.subs, s)
			h.mu.Unlock()
			s.mu.Lock()
			s.stopped = true
			s.queue = nil
			s.mu.Unlock()
			s.signal()
		})
	}
}

func (h *hub) publish(ev Event) {
	h.mu.Lock()
	subs := make([]*subscriber, 0, len(h.subs))
	for s := range h.subs {
		if s.kinds == nil || s.kinds[ev.Kind] {
			subs = append(subs, s)
		}
	}
	h.mu.Unlock()
	for _, s := range subs {
		s.push(ev)
	}
}

// close delivers what is queued, ends every subscriber and waits for them.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	subs := h.subs
	h.subs = map[*subscriber]struct{}{}
	h.mu.Unlock()
	for s := range subs {
		s.mu.Lock()
		s.closing = true
		s.mu.Unlock()
		s.signal()
	}
	h.wg.Wait()
}

func (s *subscriber) push(ev Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || s.closing {
		return
	}
	if ev.Kind == EventData {
		if n := len(s.queue); n > 0 && s.queue[n-1].Kind == EventData && s.queue[n-1].ID == ev.ID {
			s.queue[n-1].Bytes += ev.Bytes
			return
		}
		if len(s.queue) >= SubscriberQueue {
			s.missed++
			return
		}
	}
	s.queue = append(s.queue, ev)
	s.signal()
}

func (s *subscriber) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber) run() {
	defer s.hub.wg.Done()
	for {
		<-s.wake
		for {
			s.mu.Lock()
			if s.stopped {
				s.mu.Unlock()
				return
			}
			if len(s.queue) == 0 {
				done := s.closing
				s.mu.Unlock()
				if done {
					return
				}
				break
			}
			ev := s.queue[0]
			s.queue[0] = Event{}
			s.queue = s.queue[1:]
			if ev.Kind == EventData {
				ev.Missed, s.missed = s.missed, 0
			}
			s.mu.Unlock()
			s.deliver(ev)
		}
	}
}

func (s *subscriber) deliver(ev Event) {
	defer func() {
		if r := recover(); r != nil {
			s.hub.log.Error("jobs: event subscriber panicked", "kind", ev.Kind, "job", ev.ID, "panic", r)
		}
	}()
	s.fn(ev)
}
