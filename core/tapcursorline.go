package core

// SetCursorLine lets a tap that keeps the terminal's screen (the screen
// package's emulator) tell the session what its cursor's row shows: f
// returns that row's text up to the cursor. A send asks it, once per
// quiet spell, for a shell prompt drawn by a program that holds the
// alternate screen, whose text the scrollback does not keep: the shell
// inside a terminal multiplexer (tmux), which passes no prompt marker
// through. f is called without the session's lock held, from the
// goroutine waiting on a send; it may call the service but must not wait
// for the session's output.
func (t *Tap) SetCursorLine(f func() string) {
	t.mu.Lock()
	t.cursorLine = f
	t.mu.Unlock()
}

// cursorLine returns the text of the cursor's row up to the cursor, as
// the first tap that keeps the screen (SetCursorLine) reads it, and
// false when no tap does.
func (sess *session) cursorLine() (string, bool) {
	sess.mu.Lock()
	var f func() string
	for _, t := range sess.taps {
		t.mu.Lock()
		f = t.cursorLine
		t.mu.Unlock()
		if f != nil {
			break
		}
	}
	sess.mu.Unlock()
	if f == nil {
		return "", false
	}
	return f(), true
}
