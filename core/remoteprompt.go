package core

import (
	"regexp"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// remotePromptQuiet is how long output must be quiet, with a shell prompt's
// shape on its last line and a remote-login client holding the terminal,
// before a send settles as WaitRemotePrompt.
const remotePromptQuiet = 150 * time.Millisecond

// maxPromptLine bounds the last line looked at for a prompt's shape.
const maxPromptLine = 256

// remoteLogins are the programs (command names) that put a shell the
// session's shell did not start on the terminal: another machine's or a
// container's (ssh, docker) or another user's (su), which passes no
// prompt marker through (script runs one on a terminal of its own); so
// do the multiplexers below. A prompt there
// carries no marker the session's shell installed.
var remoteLogins = map[string]bool{
	"ssh": true, "mosh-client": true, "telnet": true,
	"docker": true, "podman": true, "kubectl": true,
	"su": true, "sudo": true, "script": true,
}

// multiplexers are the terminal multiplexers, which show shells of their
// own as remote logins do.
var multiplexers = map[string]bool{"tmux: client": true, "screen": true, "zellij": true}

// remoteLogin reports whether the command name is a remote-login client
// or a terminal multiplexer.
func remoteLogin(name string) bool { return remoteLogins[name] || multiplexers[name] }

// RemoteLogin reports whether the program is a remote-login client (ssh,
// su, docker, kubectl, ...) or a terminal multiplexer (tmux, screen): it
// shows a shell or program it did not start, and reads the terminal
// whatever that program does.
func (p ForegroundProgram) RemoteLogin() bool { return remoteLogin(p.Name) }

// looksLikeShellPrompt reports whether line, the unterminated last line of
// the output, ends as a shell prompt does: "$", "#", "%" or ">" after a
// name, a path or nothing, then blanks ("user@host:~$ ", "root@box:/# ",
// "host% ", ">>> "). A question ("Password: ", "Continue? [y/N] ") does
// not; neither does a percentage ("50%") or a bar of signs ("####"). The
// line may begin with what came before the prompt: after an answer typed
// with echo off, the far side's prompt follows the question on its line.
func looksLikeShellPrompt(line string) bool {
	if len(line) == 0 || len(line) > maxPromptLine {
		return false
	}
	t := strings.TrimRight(line, " \t")
	if t == "" || len(t) == len(line) { // a prompt leaves room to type
		return false
	}
	sigil := t[len(t)-1]
	switch sigil {
	case '$', '#', '%', '>':
	default:
		return false
	}
	if len(t) >= 2 {
		before := t[len(t)-2]
		if (sigil == '%' && before >= '0' && before <= '9') || (before == sigil && sigil != '>') {
			return false
		}
	}
	return true
}

// looksLikeProgramPrompt reports whether line, the unterminated last line
// of the output, is a prompt a program waits at: a shell's shape
// (looksLikeShellPrompt: "debug> ", "> ", "mysql> "), a Python console's
// first prompt (">>> ", "In [1]: ") or its continuation ("... "), or a
// debugger's name in parentheses ("(Pdb) ", "(gdb) ", "(lldb) ").
func looksLikeProgramPrompt(line string) bool {
	return looksLikeShellPrompt(line) || freshPrompts.MatchString(line) ||
		continuationLine(line) != "" || debuggerPrompt.MatchString(line)
}

// debuggerPrompt matches a prompt that is a name in parentheses and a
// blank, as pdb, gdb and lldb print theirs.
var debuggerPrompt = regexp.MustCompile(`^\([A-Za-z][A-Za-z0-9_-]{0,15}\) $`)

// remotePromptShown reports whether the output ends in a prompt's shape
// (looksLikeProgramPrompt; on the alternate screen a shell's,
// looksLikeShellPrompt) while a remote-login client (remoteLogins) holds
// the terminal, or while a command of a marked shell on a backend that
// cannot see its foreground runs (farShellRunsACommand): a shell, a
// console or a debugger on another machine waits for its next command.
// The output's end is the scrollback's unterminated last line, or, when a
// program holds the alternate screen (whose text the scrollback does not
// keep), the cursor's row as a tap that keeps the screen reads it
// (Tap.SetCursorLine). Off the alternate screen, any
// relay waiting on the terminal and its socket (InputWait.Relay: a
// client of a server such as nc, socat or mongosh) counts as such a client: the
// prompt is its server's. It reads the foreground from the backend
// (Prober.DescribeForeground, Prober.InputWait), so it is asked once per
// quiet spell, not on every wake-up.
func (sess *session) remotePromptShown() bool {
	sess.mu.Lock()
	alt := sess.buf.AltScreen()
	last, open := sess.openLineLocked(maxPromptLine + 64)
	sess.mu.Unlock()
	if !alt && (!open || !looksLikeProgramPrompt(last)) {
		return false
	}
	if !sess.watchesInput {
		return !alt && sess.farShellRunsACommand()
	}
	if fg := sess.describeForeground(); fg == nil || !remoteLogin(fg.Name) {
		return !alt && sess.relayWaits()
	}
	if !alt {
		return true
	}
	line, ok := sess.cursorLine()
	return ok && looksLikeShellPrompt(line)
}

// openLineLocked returns the output's unterminated last line (its last
// maxBytes bytes), or false when the output ends with a newline: the
// prompt a program waits at. sess.mu is held.
func (sess *session) openLineLocked(maxBytes int) (string, bool) {
	pg := sess.buf.Page(scrollback.PageRequest{Newest: true, Count: 1}, maxBytes)
	if !pg.Partial || len(pg.Lines) == 0 {
		return "", false
	}
	return pg.Lines[len(pg.Lines)-1], true
}

// farShellRunsACommand reports, for a backend that cannot see who holds
// its terminal (plain ssh), whether a shell printing the prompt marker's
// counted command ends (promptmark.PromptCommand: a shell this service
// marked, on the far side) printed a prompt and then output: a command of
// its runs, and a prompt's shape at the end of that output is the
// command's (a console, a debugger, a shell it started), as a remote-login
// client's is. The shell's own prompt ends no such output: its marker
// settles a send.
func (sess *session) farShellRunsACommand() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	m := sess.buf.Marks()
	return m.InputLineValid && m.PromptEnds > 0 && !m.AtPrompt()
}

// relayWaits reports whether a relay holds the terminal and waits on it
// and on its socket, with nothing in flight (InputWait.Relay and Waiting).
func (sess *session) relayWaits() bool {
	w, ok := sess.inputWait(InputBaseline{})
	return ok && w.Waiting && w.Relay
}
