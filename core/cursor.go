package core

import "github.com/ptyseam/ptyseam/core/scrollback"

// Cursor is an incremental read position over a session's scrollback (see
// scrollback.Cursor). The ptysession facade keeps one per session for its
// tails.
type Cursor = scrollback.Cursor

// readPage serves a cursor from the session's scrollback. sess.mu is held.
// The cursor applies the byte bound itself, keeping the newest output.
func (sess *session) readPage(req PageRequest) (PageResult, error) {
	return sess.buf.Page(req, 0), nil
}
