package localpty

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// rawEpollREPL starts the event-loop REPL scripts: the terminal in raw
// mode without echo, an epoll instance watching it, out() to print, and
// typed() to echo typed bytes and hand each line to a function ("exit"
// ends the program).
const rawEpollREPL = `
import os, select, socket, sys, termios, time
fd = 0
attrs = termios.tcgetattr(fd)
attrs[3] &= ~(termios.ICANON | termios.ECHO)
termios.tcsetattr(fd, termios.TCSANOW, attrs)
ep = select.epoll()
ep.register(fd, select.EPOLLIN)
def out(s):
    os.write(1, s.encode())
line = b""
def typed(b, on_line):
    global line
    for c in b:
        if c in (13, 10):
            out("\r\n")
            l, line = line, b""
            if l == b"exit":
                sys.exit(0)
            on_line(l)
        else:
            line += bytes([c])
            out(chr(c))
`

// eventLoopREPL is a REPL in the shape of Node's: the terminal in raw mode,
// watched by an epoll event loop that also runs timers. It echoes each line
// itself; "slow" answers 400 ms later (a timer, the terminal still
// watched, as Node's REPL does while it awaits a promise), anything else at
// once. With a prompt it prints "> " after each answer; without one
// ("noprompt" in argv) it answers a line and prints nothing more, as a
// line-reading script on an event loop does.
const eventLoopREPL = rawEpollREPL + `
prompt = "" if "noprompt" in sys.argv else "> "
out(prompt)
due = None
def answer(l):
    global due
    if l == b"slow":
        due = time.monotonic() + 0.4
    else:
        out("ok " + l.decode() + "\r\n" + prompt)
while True:
    timeout = -1 if due is None else max(0, due - time.monotonic())
    events = ep.poll(timeout)
    if due is not None and time.monotonic() >= due:
        due = None
        out("answer\r\n" + prompt)
    if not events:
        continue
    b = os.read(fd, 1024)
    if not b:
        break
    typed(b, answer)
`

// A send to a REPL on an event loop that reads the terminal while it works
// settles when its answer and next prompt are there, not when the line's
// echo is done: the prompt it showed before the send and the complete line
// it ends on now say it has not answered yet.
func TestSendToEventLoopREPLWaitsForItsPrompt(t *testing.T) {
	need(t, "python3")
	svc := serviceOf(t, NewExec(ExecOptions{Options: shortOpts(false)}))
	owner := core.NewOwner("event-loop")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	info, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: TypeExec, Command: pyCmd(eventLoopREPL)})
	mustf(t, err, "spawn")
	if !strings.HasSuffix(info.InitialOutput, "> ") {
		t.Fatalf("initial output %q, want the REPL's prompt", info.InitialOutput)
	}
	for _, line := range []string{"fast", "slow", "slow", "fast"} {
		res := sendWait(t, svc, owner, info.ID, line)
		want := "ok " + line + "\n> "
		if line == "slow" {
			want = "answer\n> "
		}
		if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, want) {
			t.Fatalf("send %q: settled as %s after %v with %q, want stdin_read ending %q", line, res.WaitReason, res.Elapsed, res.Delta, want)
		}
	}
}

// The same event loop without a prompt answers a line and reads the next:
// nothing says it is still working, so a send settles on its read and not
// on the quiet window.
func TestSendToEventLoopWithoutPromptSettlesOnRead(t *testing.T) {
	need(t, "python3")
	svc := serviceOf(t, NewExec(ExecOptions{Options: shortOpts(false)}))
	owner := core.NewOwner("event-loop-noprompt")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	info, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: TypeExec, Command: append(pyCmd(eventLoopREPL), "noprompt")})
	mustf(t, err, "spawn")
	for _, line := range []string{"one", "two"} {
		res := sendWait(t, svc, owner, info.ID, line)
		if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, "ok "+line+"\n") {
			t.Fatalf("send %q: settled as %s after %v with %q, want stdin_read after its answer", line, res.WaitReason, res.Elapsed, res.Delta)
		}
	}
}

// Started at a shell's prompt, an event loop that prints no prompt of its
// own settles on its first read: the prompt shown before the send was the
// shell's, not the program's.
func TestSendStartingAnEventLoopAtAShellSettlesOnRead(t *testing.T) {
	need(t, "python3")
	script := filepath.Join(t.TempDir(), "loop.py")
	mustf(t, os.WriteFile(script, []byte(eventLoopREPL), 0o600), "write the script")
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, "python3 "+script+" noprompt")
	if res.WaitReason != core.WaitStdinRead {
		t.Fatalf("start: settled as %s after %v with %q, want stdin_read", res.WaitReason, res.Elapsed, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, "one")
	if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, "ok one\n") {
		t.Fatalf("send one: settled as %s after %v with %q, want stdin_read after its answer", res.WaitReason, res.Elapsed, res.Delta)
	}
}
