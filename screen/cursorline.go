package screen

import "strings"

// cursorLine returns the text of the cursor's row up to the cursor, the
// emulator caught up first (core.Tap's SetCursorLine): a send asks it for
// a shell prompt drawn on the alternate screen, as tmux draws its
// shell's.
func (st *state) cursorLine() string {
	st.mu.Lock()
	st.catchUpLocked()
	pos := st.term.emu.CursorPosition()
	line := ""
	if pos.Y >= 0 && pos.Y < st.term.emu.Height() {
		var b strings.Builder
		line = st.term.row(&b, pos.Y)
	}
	kick := len(st.replies) > 0
	st.mu.Unlock()
	if kick {
		st.kickReplier()
	}
	// The row's text is trimmed of trailing blanks: the cursor stands
	// after a prompt's blank.
	cells := []rune(line)
	if pos.X < len(cells) {
		return string(cells[:max(pos.X, 0)])
	}
	if pos.X > len(cells) {
		return line + " "
	}
	return line
}
