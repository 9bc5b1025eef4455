package core

import (
	"context"
	"fmt"
	"time"
)

// sendRaceGrace is how long a send without [SendRequest.Queue] waits for
// the live send to settle or be cancelled before it is refused: a client
// that cancels a call and sends at once has its cancellation and its next
// call on the way together, and the service may take the call first.
const sendRaceGrace = 200 * time.Millisecond

// sendTurn is one send's wait for its turn on a session: no send live and,
// for a queued send, none queued ahead of it (first come, first served).
type sendTurn struct {
	sess  *session
	queue bool // SendRequest.Queue
	in    bool // t is in sess.queue (guarded by sess.mu)
}

// queueFor returns a send's turn; queue is its SendRequest.Queue.
func (sess *session) queueFor(queue bool) *sendTurn {
	return &sendTurn{sess: sess, queue: queue}
}

// firstLocked reports that no queued send is ahead of t. sess.mu is held.
func (t *sendTurn) firstLocked() bool {
	q := t.sess.queue
	return len(q) == 0 || q[0] == t
}

// leaveLocked takes t out of the queue and wakes the sends behind it.
// sess.mu is held.
func (t *sendTurn) leaveLocked() {
	if !t.in {
		return
	}
	q := t.sess.queue
	for i, x := range q {
		if x == t {
			t.sess.queue = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	t.in = false
	t.sess.broadcastChangeLocked()
}

// leave is leaveLocked for a send that gave up.
func (t *sendTurn) leave() {
	t.sess.mu.Lock()
	t.leaveLocked()
	t.sess.mu.Unlock()
}

// wait returns once it is t's turn. A send that was cancelled keeps the
// session until its interrupt took effect (at most a couple of seconds):
// every send waits for that. Otherwise a queued send joins the queue (at
// most Options.MaxQueuedSends wait; SEND_ACTIVE beyond) and waits, and a
// send without Queue waits at most sendRaceGrace for the live send to
// settle or be cancelled (SEND_ACTIVE after). It fails with CANCELLED when
// ctx ends first, and as any call when the session can no longer be used.
func (t *sendTurn) wait(ctx context.Context, id SessionID) error {
	sess := t.sess
	var grace <-chan time.Time
	for {
		sess.mu.Lock()
		live := sess.send
		if live == nil && t.firstLocked() {
			sess.mu.Unlock()
			return nil
		}
		if err := sess.usableLocked("send"); err != nil {
			sess.mu.Unlock()
			return err
		}
		var wake, liveCancelled <-chan struct{}
		var limit <-chan time.Time
		switch {
		case live != nil && (live.cancelling.Load() || live.ctx.Err() != nil):
			wake = live.done
		case t.queue:
			if !t.in {
				if max := sess.svc.opts.MaxQueuedSends; len(sess.queue) >= max {
					sess.mu.Unlock()
					return newError(CodeSendActive, "send", id, fmt.Sprintf("%d sends already wait on this session, the limit: wait for them or cancel one", max))
				}
				sess.queue = append(sess.queue, t)
				t.in = true
			}
			if live != nil {
				wake = live.done
			} else {
				wake = sess.changedLocked() // the sends ahead go first
			}
		case live == nil:
			sess.mu.Unlock()
			return newError(CodeSendActive, "send", id, "other sends wait their turn on this session (set Queue to wait behind them)")
		default:
			if grace == nil {
				timer := time.NewTimer(sendRaceGrace)
				defer timer.Stop()
				grace = timer.C
			}
			wake, liveCancelled, limit = live.done, live.ctx.Done(), grace
		}
		sess.mu.Unlock()
		select {
		case <-wake:
		case <-liveCancelled:
		case <-limit:
			return newError(CodeSendActive, "send", id, "another send is still running on this session (set Queue to wait for it)")
		case <-ctx.Done():
			return cancelled("send", id, ctx.Err())
		}
	}
}
