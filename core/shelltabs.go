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
// for itself, so a send that a shell marking its prompts reads has each
// tab typed as Ctrl-V Tab. A reader that a command started instead takes
// the pair as a tab as well: the terminal's line discipline drops the
// Ctrl-V in canonical mode (VLNEXT), and readline (gdb, Python's console
// up to 3.12) and vi read it as quoted-insert; Python's own line editor
// (3.13) has no such key and would keep the Ctrl-V.
//
// The pair only works while the line editor reads: between two lines
// (after a heredoc's line, before the next prompt) bash puts the terminal
// back in canonical mode, where the line discipline takes the Ctrl-V for
// itself, and the terminal processes what is written as its input buffer
// (4 KiB on Linux) makes room. A quoted send longer than tabPiece is
// therefore written in pieces at line ends, each once the reader waits
// for input again with nothing in flight (writePaced), where the backend
// can tell (Facts.WatchesInput).

// quoteTabs returns data with each tab preceded by Ctrl-V; ok is false,
// and data is kept as it is, when it holds no tab or quotes itself (holds
// a Ctrl-V already).
func quoteTabs(data string) (typed string, ok bool) {
	if !strings.Contains(data, "\t") || strings.Contains(data, "\x16") {
		return data, false
	}
	return strings.ReplaceAll(data, "\t", "\x16\t"), true
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
	return m.PromptEnds > 0 && m.TextSincePromptEnd == 0
}

// quotesTabsLocked reports whether a send's tabs go quoted: a shell that
// marks its prompts reads it (bash with the marker installed, locally or
// on a remote host). A remote shell's prompt found without a marker may
// be another shell's, whose Ctrl-V means something else. sess.mu is
// held.
func (sess *session) quotesTabsLocked(base InputBaseline) bool {
	return sess.lastSettle != WaitRemotePrompt && sess.shellReadsLocked(base)
}

// tabPiece is the most a paced send writes at once: well under the
// terminal's input buffer, so that the line discipline takes a whole
// piece while the line editor reads.
const tabPiece = 2048

// pacedPoll is how often writePaced asks whether the reader waits again.
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

// writePaced writes data in tabPieces, each after the first once the
// reader waits for input with nothing in flight; ctx ends it.
func (sess *session) writePaced(ctx context.Context, data []byte) error {
	for i, piece := range tabPieces(data) {
		for i > 0 {
			if w, ok := sess.inputWait(InputBaseline{}); !ok || w.Waiting {
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pacedPoll):
			}
		}
		if _, err := sess.be.Write(ctx, piece); err != nil {
			return err
		}
	}
	return nil
}
