package core

import "time"

// ReplyWait bounds how long a send holds off settling on a program's read
// of the terminal after [Tap.ExpectReply], when no [Tap.Reply] follows.
const ReplyWait = time.Second

// ExpectReply tells the session that output the tap just took in holds a
// terminal query (a cursor position or device attributes request) that
// the tap's reader answers with [Tap.Reply]. Until that answer is
// written, for at most [ReplyWait], a send does not settle on the
// program's read of the terminal: the program waits for the answer, not
// for the caller's input. It takes no lock: a sink (SetSink) may call it.
func (t *Tap) ExpectReply() { t.sess.replyOwed.Store(time.Now().UnixNano()) }

// replyPending returns how much longer a send waits for an answer a tap's
// reader owes (Tap.ExpectReply), or 0.
func (sess *session) replyPending(now time.Time) time.Duration {
	at := sess.replyOwed.Load()
	if at == 0 {
		return 0
	}
	return max(0, time.Unix(0, at).Add(ReplyWait).Sub(now))
}
