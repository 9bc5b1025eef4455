package docker

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/moby/moby/api/types/events"
	"github.com/moby/moby/client"
)

// containerWatch follows one container's events for a session on the
// agent, subscribed before the agent starts, and keeps what they said:
// whether someone stopped the container, whether it died, and whether
// the events stream broke (which a cut of the engine connections does at
// the same moment as it ends the agent's stream). Nothing depends on a
// clock or on the engine's event history: the subscription is live from
// before the action it reports.
type containerWatch struct {
	cancel  context.CancelFunc
	done    chan struct{} // the watcher has returned
	changed chan struct{} // a fact was recorded (buffered: one pending wake-up)

	mu    sync.Mutex
	facts watchFacts
}

// watchFacts is what a container's events said so far.
type watchFacts struct {
	stopKill bool  // a kill with a stopping signal, or an OOM kill
	removed  bool  // the container was destroyed
	died     bool  // the container's program ended
	exitCode int   // its exit code, when died
	broken   bool  // the events stream ended with an error
	err      error // that error
}

// watchSince subscribes to the container id's events and follows them
// until stop. since is an engine timestamp ("seconds.nanoseconds") from
// which the engine replays the events it still holds before the live
// ones: the engine writes the response's headers before it subscribes,
// so an event in between would be missed without it. The subscription
// is made before watchSince returns, and is bounded by ctx (the caller's
// spawn context) until then.
func watchSince(ctx context.Context, cli *client.Client, id, since string) *containerWatch {
	wctx, cancel := context.WithCancel(context.Background())
	w := &containerWatch{cancel: cancel, done: make(chan struct{}), changed: make(chan struct{}, 1)}
	stopAfter := context.AfterFunc(ctx, cancel)
	ev := cli.Events(wctx, client.EventsListOptions{Since: since, Filters: client.Filters{}.
		Add("type", string(events.ContainerEventType)).Add("container", id)})
	stopAfter()
	go w.run(wctx, ev)
	return w
}

// engineTime is t as the engine's "seconds.nanoseconds" timestamp.
func engineTime(t time.Time) string {
	return fmt.Sprintf("%d.%09d", t.Unix(), t.Nanosecond())
}

// sinceStart is the engine timestamp of a running container's start
// (State.StartedAt, the engine's clock), or "" when it cannot be read:
// the watch is then live only.
func sinceStart(startedAt string) string {
	t, err := time.Parse(time.RFC3339Nano, startedAt)
	if err != nil {
		return ""
	}
	return engineTime(t)
}

func (w *containerWatch) run(ctx context.Context, ev client.EventsResult) {
	defer close(w.done)
	for {
		select {
		case m := <-ev.Messages:
			w.record(m)
		case err := <-ev.Err:
			if ctx.Err() == nil {
				w.update(func(f *watchFacts) { f.broken, f.err = true, err })
			}
			return
		case <-ctx.Done():
			return
		}
	}
}

// record keeps what one event says about the container's end.
func (w *containerWatch) record(m events.Message) {
	switch m.Action {
	case events.ActionKill:
		if stopSignals[m.Actor.Attributes["signal"]] {
			w.update(func(f *watchFacts) { f.stopKill = true })
		}
	case events.ActionOOM:
		w.update(func(f *watchFacts) { f.stopKill = true })
	case events.ActionDestroy:
		w.update(func(f *watchFacts) { f.removed = true })
	case events.ActionDie:
		code, err := strconv.Atoi(m.Actor.Attributes["exitCode"])
		if err != nil {
			code = -1
		}
		w.update(func(f *watchFacts) { f.died, f.exitCode = true, code })
	}
}

func (w *containerWatch) update(fn func(*watchFacts)) {
	w.mu.Lock()
	fn(&w.facts)
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// now returns the facts recorded so far.
func (w *containerWatch) now() watchFacts {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.facts
}

// stop ends the subscription and waits for the watcher to return.
func (w *containerWatch) stop() {
	w.cancel()
	<-w.done
}
