package core

import (
	"encoding/json"
	"strconv"
)

// StatusKind says whether a session's top-level process still runs.
type StatusKind string

// Status kinds.
const (
	StatusRunning StatusKind = "running"
	StatusExited  StatusKind = "exited"
)

// Status is the state of a session's top-level process. It is independent of
// why a send returned: a send may settle while the process keeps running.
type Status struct {
	Kind StatusKind
	// ExitCode is the exit code when the process exited normally, and -1
	// when it was killed by a signal or the code is unknown.
	ExitCode int
	// Signal names the signal that killed the process ("SIGKILL"), or "".
	Signal string
	// Reason says, for an exited session, what ended it when the exit code
	// alone does not (for example "connection lost"). Empty otherwise.
	Reason string
}

// Running is the status of a live session.
var Running = Status{Kind: StatusRunning}

// ExitedWithCode returns the status of a process that exited with code.
func ExitedWithCode(code int) Status { return Status{Kind: StatusExited, ExitCode: code} }

// ExitedWithSignal returns the status of a process killed by sig.
func ExitedWithSignal(sig string) Status {
	return Status{Kind: StatusExited, ExitCode: -1, Signal: sig}
}

// Exited reports whether the process has exited.
func (s Status) Exited() bool { return s.Kind == StatusExited }

// String renders the status for humans: "running", "exited 3",
// "exited (SIGKILL)", and with a Reason "exited (connection lost)" or
// "exited 3 (closed)".
func (s Status) String() string {
	switch {
	case s.Kind != StatusExited:
		return "running"
	case s.Signal != "":
		return "exited (" + s.Signal + ")" + s.reasonSuffix()
	case s.ExitCode < 0 && s.Reason != "":
		return "exited (" + s.Reason + ")"
	case s.ExitCode < 0:
		return "exited (unknown code)"
	default:
		return "exited " + strconv.Itoa(s.ExitCode) + s.reasonSuffix()
	}
}

func (s Status) reasonSuffix() string {
	if s.Reason == "" {
		return ""
	}
	return " (" + s.Reason + ")"
}

type statusJSON struct {
	Kind     StatusKind `json:"kind"`
	ExitCode *int       `json:"exitCode,omitempty"`
	Signal   *string    `json:"signal,omitempty"`
	Reason   string     `json:"reason,omitempty"`
}

// MarshalJSON encodes the seed's shape: {"kind":"running"} or
// {"kind":"exited","exitCode":3,"signal":null}.
func (s Status) MarshalJSON() ([]byte, error) {
	if s.Kind != StatusExited {
		return json.Marshal(statusJSON{Kind: StatusRunning})
	}
	j := statusJSON{Kind: StatusExited, Reason: s.Reason}
	if s.Signal == "" && s.ExitCode >= 0 {
		c := s.ExitCode
		j.ExitCode = &c
	}
	if s.Signal != "" {
		sig := s.Signal
		j.Signal = &sig
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes what MarshalJSON produces.
func (s *Status) UnmarshalJSON(b []byte) error {
	var j statusJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = Status{Kind: j.Kind, ExitCode: -1, Reason: j.Reason}
	if j.Kind != StatusExited {
		*s = Running
		return nil
	}
	if j.ExitCode != nil {
		s.ExitCode = *j.ExitCode
	}
	if j.Signal != nil {
		s.Signal = *j.Signal
	}
	return nil
}

// WaitReason explains why a send returned control to its caller. It says
// nothing about whether the program exited: see [Status].
type WaitReason string

// Wait reasons.
const (
	// WaitPrompt: the shell printed its prompt marker (OSC 133;B) after the
	// write and nothing followed it: the command finished and the shell
	// waits for the next one.
	WaitPrompt WaitReason = "prompt"
	// WaitStdinRead: every process of the terminal's foreground process
	// group is blocked reading the terminal, newly since the write, and
	// output is quiet: the program waits for input (a REPL prompt, a
	// password question).
	WaitStdinRead WaitReason = "stdin_read"
	// WaitRemotePrompt: a remote-login client (ssh, mosh, telnet, docker,
	// podman, kubectl, su, sudo) or a terminal multiplexer (tmux, screen,
	// zellij) holds the terminal, or a relay waits on it and on its socket
	// (a client of a server, such as nc, socat or mongosh), or a marked
	// shell on a backend that cannot see its foreground (plain ssh) runs a
	// command, and the output ends in a prompt's shape ("user@host:~$ ",
	// "db> ", "(Pdb) "; on the alternate screen, for a named client only,
	// the cursor's row as a tap that keeps the screen reads it), quiet for
	// 150 ms: the shell, console or server there, which prints no prompt
	// marker, waits for the next command. A question ("Password: ",
	// "[y/N] ") never settles so.
	WaitRemotePrompt WaitReason = "remote_prompt"
	// WaitInferredIdle: output was silent for the send's quiet window and no
	// stronger signal fired; the program may still be working.
	WaitInferredIdle WaitReason = "inferred_idle"
	// WaitTimeout: the send's absolute deadline passed.
	WaitTimeout WaitReason = "timeout"
	// WaitSessionExit: the session's top-level process exited (and its
	// output was drained), or the session was closed under the send.
	WaitSessionExit WaitReason = "session_exit"
	// WaitCancelled: the send was cancelled (Cancel or its context); SIGINT
	// went to the foreground process group.
	WaitCancelled WaitReason = "cancelled"
)
