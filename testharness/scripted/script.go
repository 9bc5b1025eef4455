package scripted

import (
	"github.com/ptyseam/ptyseam/core"
)

// Reply is what the terminal does with one line of input.
type Reply struct {
	// Output is printed in reply ("\n" becomes "\r\n").
	Output string
	// Settle says how the send settles: core.WaitPrompt (the default when
	// empty), core.WaitStdinRead, core.WaitInferredIdle or
	// core.WaitSessionExit.
	Settle core.WaitReason
	// ExitCode is the command's exit code (reported with a WaitPrompt
	// settle) or the program's (WaitSessionExit).
	ExitCode int
	// Secret turns the echo off for the next line (the answer to a
	// WaitStdinRead question such as "Password: "), as read -s does.
	Secret bool
}

// Script is what a scripted terminal prints and how it answers.
type Script struct {
	// Banner is printed when the session starts, before the first prompt.
	Banner string
	// Prompt is the shell prompt (default "$ ").
	Prompt string
	// Replies answer input lines, keyed by the exact line (without its
	// Enter).
	Replies map[string]Reply
	// Default answers lines without a reply (nil: the line is answered
	// "scripted: <line>: no reply in the script" with exit code 127). An
	// empty line is answered with a fresh prompt.
	Default func(line string) Reply
	// NoEcho turns the echo of input off.
	NoEcho bool
}

func (s Script) withDefaults() Script {
	if s.Prompt == "" {
		s.Prompt = "$ "
	}
	return s
}

// reply returns the reply to line.
func (s Script) reply(line string) Reply {
	if r, ok := s.Replies[line]; ok {
		return r
	}
	if line == "" {
		return Reply{}
	}
	if s.Default != nil {
		return s.Default(line)
	}
	return Reply{Output: "scripted: " + line + ": no reply in the script\n", ExitCode: 127}
}
