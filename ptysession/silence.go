package ptysession

import (
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// sshType is the backend type of consumers/ssh's sessions (that package
// imports this one, so the name is written out here): a plain ssh
// channel, on which the far side's reads of its terminal cannot be seen.
const sshType = "ssh"

// SilenceNoteSSH is [SendResult.SilenceNote] for a plain ssh session.
const SilenceNoteSSH = "settled on silence, not on a read: over plain ssh the far side's reads of the terminal cannot be seen, " +
	"so a program waiting for input (a hidden password prompt) settles a send only after the quiet window; " +
	"run the host's shells through the ptyseam agent (ptyseam mcp: \"ptyseamAgent\": true; in Go, remote/sshagent) to settle on the read"

// silenceNote returns the note for a send that settled on silence with an
// unfinished last line in a session whose reads cannot be seen; "" for
// every other send.
func (s *Sessions) silenceNote(owner *core.Owner, id core.SessionID, r core.SendResult) string {
	if r.WaitReason != core.WaitInferredIdle || r.Delta == "" || strings.HasSuffix(r.Delta, "\n") {
		return ""
	}
	if info, err := s.t.Info(owner, id); err != nil || info.Type != sshType {
		return ""
	}
	return SilenceNoteSSH
}
