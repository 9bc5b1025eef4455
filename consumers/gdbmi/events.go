package gdbmi

import "sync"

// Event is one asynchronous happening, delivered in gdb's order on
// [Client.Events].
type Event struct {
	// Record is the async record (*stopped, *running, =thread-created,
	// =library-loaded, =breakpoint-modified, ...) or a stream record that
	// arrived while no command was outstanding. It is the zero Record for
	// a line that is not MI (see Text).
	Record Record
	// Stopped is the decoded event of a *stopped record, else nil.
	Stopped *StoppedEvent
	// Breakpoint is the decoded breakpoint of =breakpoint-created and
	// =breakpoint-modified, else nil.
	Breakpoint *Breakpoint
	// Thread is the decoded notice of =thread-created, =thread-exited and
	// =thread-selected, else nil.
	Thread *ThreadNotice
	// Library is the decoded notice of =library-loaded and
	// =library-unloaded, else nil.
	Library *Library
	// Text is a line of gdb's output that is not valid MI, and Err says
	// why (a [*SyntaxError]).
	Text string
	Err  error
	// Missed counts events dropped just before this one because the
	// event buffer was full (nobody read the channel).
	Missed int
}

// eventQueue is an unbounded-by-default, optionally bounded FIFO that a
// delivery goroutine drains into a channel, so the reader never blocks on
// a slow consumer.
type eventQueue struct {
	mu     sync.Mutex
	items  []Event
	head   int
	limit  int
	missed int
	wake   chan struct{}
	ended  bool
}

func newEventQueue(limit int) *eventQueue {
	return &eventQueue{limit: limit, wake: make(chan struct{}, 1)}
}

func (q *eventQueue) push(e Event) {
	q.mu.Lock()
	if q.ended {
		q.mu.Unlock()
		return
	}
	if len(q.items)-q.head >= q.limit {
		q.head++
		q.missed++
	}
	if q.missed > 0 {
		e.Missed += q.missed
		q.missed = 0
	}
	q.items = append(q.items, e)
	q.mu.Unlock()
	q.signal()
}

func (q *eventQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// end marks that no more events will come; the delivery loop closes the
// channel after the queued ones.
func (q *eventQueue) end() {
	q.mu.Lock()
	q.ended = true
	q.mu.Unlock()
	q.signal()
}

// pop returns the next event, or ok=false with done=true when the queue
// ended and is empty.
func (q *eventQueue) pop() (e Event, ok, done bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head < len(q.items) {
		e = q.items[q.head]
		q.items[q.head] = Event{}
		q.head++
		if q.head == len(q.items) {
			q.items, q.head = q.items[:0], 0
		} else if q.head > 1024 && q.head*2 > len(q.items) {
			n := copy(q.items, q.items[q.head:])
			q.items, q.head = q.items[:n], 0
		}
		return e, true, false
	}
	return Event{}, false, q.ended
}

// deliver runs in its own goroutine: it moves events into out in order
// and closes out when the queue ended and drained, or when stop closes.
func (q *eventQueue) deliver(out chan<- Event, stop <-chan struct{}) {
	defer close(out)
	for {
		e, ok, done := q.pop()
		if done {
			return
		}
		if !ok {
			select {
			case <-q.wake:
				continue
			case <-stop:
				return
			}
		}
		select {
		case out <- e:
		case <-stop:
			return
		}
	}
}
