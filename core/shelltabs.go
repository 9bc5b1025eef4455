package core

import (
	"bytes"
	"context"
	"strings"
	"time"
)

// Tabs typed to a shell's line editor.
//
// GNU readline, which an interactive bash reads its command lines and a
// heredoc's lines with, takes a tab for completion: a heredoc that writes
// a Makefile or Go source loses its indentation, and a tab after a word
// puts a file name's rest into the text. Ctrl-V (quoted-insert, in
// readline's emacs and vi keymaps alike) makes the next character stand
// for itself, so a send that a shell's line editor reads
// (shellReadsLocked) has each tab typed as Ctrl-V Tab. Where that shell's
// prompt was found without a marker (ssh typed in the terminal, a shell
// in tmux) it may be another shell than bash: zsh reads Ctrl-V as
// quoted-insert too, a shell without a line editor (dash) reads in
// canonical mode, and fish, whose Ctrl-V pastes, completes on a tab
// either way. A reader that a command started instead takes the pair as
// a tab as well: the terminal's line discipline drops the Ctrl-V in
// canonical mode (VLNEXT), and readline (gdb, Python's console up to
// 3.12) and vi read it as quoted-insert; Python's own line editor (3.13)
// has no such key and would keep the Ctrl-V. Any other program that reads
// its line with GNU readline (gdb, sqlite3, bc, psql) gets its tabs so
// too (readlineReadsLocked).
//
// The pair only works while the line editor reads: between two lines
// (after a heredoc's line, before the next prompt) bash puts the terminal
// back in canonical mode, where the line discipline takes the Ctrl-V for
// itself, and the terminal processes what is written as its input buffer
// (4 KiB on Linux) makes room. A quoted send longer than tabPiece is
// therefore written in pieces at line ends, each once the reader is back
// in its line editor (writePaced, readerBack).

// quoteTabs returns data with each tab preceded by Ctrl-V; ok is false,
// and data is kept as it is, when it holds no tab or quotes itself (holds
// a Ctrl-V already).
func quoteTabs(data string) (typed string, ok bool) {
	if !strings.Contains(data, "\t") || strings.Contains(data, "\x16") {
		return data, false
	}
	return strings.ReplaceAll(data, "\t", "\x16\t"), true
}

// readlineReadsLocked reports whether GNU readline reads what is written
// now: the program asked for bracketed paste, which readline does while
// it reads a line and undoes once it has it, hides no cursor (a line
// editor that redraws its input does, scrollback.PasteMode), and holds no
// alternate screen. sess.mu is held.
func (sess *session) readlineReadsLocked() bool {
	m := sess.buf.PasteMode()
	return m.Bracketed && !m.Redraws && !sess.buf.AltScreen()
}

// shellReadsLocked reports whether a send written now is read by a
// shell's line editor: a marked shell holding the terminal (at its
// prompt, or at a continuation prompt: a heredoc's next line), a stream
// that ends at a prompt marker, or a send that settled on a remote shell's
// prompt. A continuation prompt alone says nothing: a program that a
// command of several lines started runs after the last one. base is the
// send's baseline. sess.mu is held.
func (sess *session) shellReadsLocked(base InputBaseline) bool {
	if sess.lastSettle == WaitRemotePrompt || sess.promptMarked && base.Leader {
		return true
	}
	m := sess.buf.Marks()
	return m.AtPrompt()
}

// tabPiece is the most a paced send writes at once: well under the
// terminal's input buffer, so that the line discipline takes a whole
// piece while the line editor reads.
const tabPiece = 2048

// pacedPoll is how often writePaced asks whether the reader is back.
const pacedPoll = time.Millisecond

// tabPieces splits data after line ends into runs of at most tabPiece
// bytes; a longer line is a run of its own.
func tabPieces(data []byte) [][]byte {
	var pieces [][]byte
	for len(data) > 0 {
		n := len(data)
		if n > tabPiece {
			n = bytes.LastIndexByte(data[:tabPiece], '\n') + 1
			if n == 0 { // one long line
				n = bytes.IndexByte(data, '\n') + 1
				if n == 0 {
					n = len(data)
				}
			}
		}
		pieces = append(pieces, data[:n])
		data = data[n:]
	}
	return pieces
}

// pieceWait bounds the wait for the reader before each piece: a reader
// that shows no sign of taking the next line gets it then.
const pieceWait = time.Second

// writePaced writes data in tabPieces, each after the first once the
// reader is back in its line editor (readerBack); ctx ends it.
func (sess *session) writePaced(ctx context.Context, data []byte) error {
	var lines0 int64 // completed output lines when the last piece was written
	var typed int    // lines the last piece ended
	tick := time.NewTicker(pacedPoll)
	defer tick.Stop()
	for i, piece := range tabPieces(data) {
		if i > 0 {
			deadline := time.Now().Add(pieceWait)
			for !sess.readerBack(lines0, typed) && time.Now().Before(deadline) {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-tick.C:
				}
			}
		}
		sess.mu.Lock()
		lines0, _ = sess.completedLinesLocked()
		sess.mu.Unlock()
		typed = bytes.Count(piece, []byte{'\n'})
		if _, err := sess.be.Write(ctx, piece); err != nil {
			return err
		}
	}
	return nil
}

// readerBack reports whether the reader of a paced send is back in its
// line editor, so that the next piece reaches the terminal in raw mode:
// the backend says the reader waits for input with nothing in flight, or
// the output shows the typed lines echoed since lines0 (completed lines
// then) and a prompt after them, which a line editor prints once it has
// set the terminal up to read (where the backend cannot tell, or the
// reader relays the terminal to a far shell).
func (sess *session) readerBack(lines0 int64, typed int) bool {
	if w, ok := sess.inputWait(InputBaseline{}); ok && w.Waiting && !w.Relay {
		return true
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	done, open := sess.completedLinesLocked()
	return open && done-lines0 >= int64(typed)
}

// completedLinesLocked returns how many output lines ever ended, and
// whether an unterminated line follows them. sess.mu is held.
func (sess *session) completedLinesLocked() (int64, bool) {
	open := sess.buf.LineOpen()
	if open {
		return sess.buf.Total() - 1, true
	}
	return sess.buf.Total(), false
}
