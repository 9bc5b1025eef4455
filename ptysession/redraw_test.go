package ptysession

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// reservingREPL is a python3 REPL that draws its prompt as prompt_toolkit
// (IPython) does: it prints newlines below the prompt to reserve rows,
// moves back up to the prompt, and, once a line is read (echo off),
// moves back over the prompt, erases and redraws it with the input. Each
// turn is one write, as prompt_toolkit renders.
const reservingREPL = `
import os, sys, termios
a = termios.tcgetattr(0); a[3] &= ~termios.ECHO; termios.tcsetattr(0, termios.TCSANOW, a)
n, out = 1, ""
while True:
    p = "In [%d]: " % n
    os.write(1, (out + p + "\r\r\n" * 5 + " \b\x1b[5A\x1b[%dC" % len(p)).encode())
    line = sys.stdin.readline().rstrip("\n")
    out = "\x1b[%dD\x1b[J%s%s\r\r\n" % (len(p), p, line)
    if line == "exit":
        os.write(1, out.encode())
        break
    out += "Out[%d]: %s\r\n\r\n" % (n, eval(line))
    n += 1
`

// TestRedrawnPromptReadsAsATranscript: a REPL that reserves rows below
// its prompt and redraws the prompt with the input reads as a plain
// transcript: each prompt once, with its input, and no reserved rows.
func TestRedrawnPromptReadsAsATranscript(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: JoinCommand([]string{"python3", "-c", reservingREPL})})
		opened := waitTailSuffixFrom(t, s, owner, r.SessionID, r.InitialOutput, "In [1]:")
		var sent strings.Builder
		for _, in := range []string{"6*7", "2**10"} {
			res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: in})
			if err != nil {
				t.Fatal(err)
			}
			sent.WriteString(res.Delta)
		}
		got := opened + sent.String()
		want := "In [1]: 6*7\nOut[1]: 42\n\nIn [2]: 2**10\nOut[2]: 1024\n\nIn [3]:"
		if !strings.HasSuffix(got, want) || strings.Count(got, "In [1]") != 1 {
			t.Fatalf("transcript %q, want it to end %q with each prompt once", got, want)
		}
	})
}

// TestAlternateScreenTextStaysOutOfTheOutput: what a program draws on the
// alternate screen is not part of the session's output (as it is not
// part of a terminal's scrollback), also when the program is interrupted
// without leaving it: the shell's prompt after it reads clean.
func TestAlternateScreenTextStaysOutOfTheOutput(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		sent, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{
			Data:    `printf '\033[?1049h\033[2J\033[HDRAWN'; while :; do printf '\033[5;1HTICK'; sleep 0.05; done`,
			Timeout: 500 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		sig, err := s.Signal(testCtx(t), owner, r.SessionID, SIGINT)
		if err != nil {
			t.Fatal(err)
		}
		waitPrompt(t, s, owner, r.SessionID)
		tail, err := s.Tail(testCtx(t), owner, r.SessionID, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := sent.Delta + sig.Output + tail.Text
		_, after, _ := strings.Cut(got, "\n") // past the typed line's echo
		end := strings.TrimRight(after, " ")
		if strings.Contains(after, "DRAWN") || strings.Contains(after, "TICK") || !strings.HasSuffix(end, "#") && !strings.HasSuffix(end, "$") {
			t.Fatalf("output %q: the alternate screen's text in it, or no prompt at its end", got)
		}
	})
}
