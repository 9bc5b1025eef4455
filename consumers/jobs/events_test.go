//go:build unix

package jobs

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// recorder collects events safely.
type recorder struct {
	mu  sync.Mutex
	evs []Event
}

func (r *recorder) add(ev Event) {
	r.mu.Lock()
	r.evs = append(r.evs, ev)
	r.mu.Unlock()
}

func (r *recorder) kinds(id string) []EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []EventKind
	for _, ev := range r.evs {
		if ev.ID == id && (len(out) == 0 || out[len(out)-1] != ev.Kind) {
			out = append(out, ev.Kind)
		}
	}
	return out
}

func TestEventsInOrderAndExitNotice(t *testing.T) {
	notes := make(chan Notification, 1)
	f := newFixture(t, Config{Backend: BackendPipe, Notify: func(n Notification) { notes <- n }})
	var all recorder
	f.m.Subscribe(all.add)
	var dataBytes int64
	var mu sync.Mutex
	f.m.OnData(func(ev Event) { mu.Lock(); dataBytes += ev.Bytes; mu.Unlock() })
	created := make(chan Event, 1)
	f.m.OnCreated(func(ev Event) { created <- ev })

	r := sh("echo hello; echo world; exit 3")
	r.NotifyOnExit, r.Title = true, "greeter"
	in := f.launch(t, r)
	quiet := f.launch(t, sh("true")) // no notice for this one

	var n Notification
	select {
	case n = <-notes:
	case <-time.After(testenv.HangBound):
		t.Fatal("no exit notice")
	}
	if n.Job.ID != in.ID || n.Job.State != StateFailed || !strings.Contains(n.Message, "failed (exit 3)") || !strings.Contains(n.Message, `bg_read(id: "`+in.ID+`")`) || !strings.Contains(n.Message, "printed 2 lines") {
		t.Fatalf("notice %+v", n)
	}
	if ev := <-created; ev.ID != in.ID || ev.Info.Title != "greeter" || ev.Info.State != StateRunning {
		t.Fatalf("created %+v", ev)
	}
	f.waitEnded(t, quiet.ID)
	if err := f.m.Shutdown(t.Context()); err != nil { // flushes the queues
		t.Fatal(err)
	}
	if got := all.kinds(in.ID); len(got) != 3 || got[0] != EventCreated || got[1] != EventData || got[2] != EventExit {
		t.Fatalf("event order %v", got)
	}
	if dataBytes != int64(len("hello\nworld\n")) {
		t.Fatalf("data events carried %d bytes", dataBytes)
	}
	select {
	case extra := <-notes:
		t.Fatalf("unexpected notice %+v", extra)
	default:
	}
}

// TestSlowSubscriberNeverBlocks shows a subscriber that does not return
// does not hold up a job's output, its exit, or other subscribers.
func TestSlowSubscriberNeverBlocks(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPipe})
	release := make(chan struct{})
	var slow recorder
	f.m.Subscribe(func(ev Event) {
		<-release
		slow.add(ev)
	})
	f.m.Subscribe(func(ev Event) { panic("a broken subscriber") })
	exits := make(chan Event, 8)
	f.m.OnExit(func(ev Event) { exits <- ev })

	var ids []string
	for range 3 {
		ids = append(ids, f.launch(t, LaunchRequest{Command: "seq", Args: []string{"1", "200000"}}).ID)
	}
	for range ids {
		select {
		case <-exits:
		case <-time.After(testenv.HangBound):
			close(release)
			t.Fatal("exit events held up by a slow subscriber")
		}
	}
	for _, id := range ids {
		res, err := f.m.Read(f.owner, id, ReadRequest{Limit: 1})
		if err != nil || texts(res) != "200000" {
			t.Fatalf("output %+v %v", summary(res), err)
		}
	}
	close(release)
	if err := f.m.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The slow subscriber still got every created and exit event.
	var created, exited int
	for _, ev := range slow.evs {
		switch ev.Kind {
		case EventCreated:
			created++
		case EventExit:
			exited++
		}
	}
	if created != 3 || exited != 3 {
		t.Fatalf("slow subscriber got %d created, %d exit events", created, exited)
	}
}

func TestUnsubscribe(t *testing.T) {
	f := newFixture(t, Config{Backend: BackendPipe})
	var rec recorder
	unsub := f.m.OnCreated(rec.add)
	unsub()
	unsub() // idempotent
	in := f.launch(t, sh("true"))
	f.waitEnded(t, in.ID)
	if err := f.m.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(rec.evs) != 0 {
		t.Fatalf("events after unsubscribe: %+v", rec.evs)
	}
	// Subscribing after shutdown is a no-op.
	f.m.OnExit(func(Event) {})()
}
