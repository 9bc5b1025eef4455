package localpty

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// peerREPL is a debugger in the shape of `node inspect`: an epoll event
// loop that watches the terminal and a TCP connection on loopback to a
// helper process it forked (the debuggee, in its process group), which
// answers each line. The helper starts slowly, as a debuggee does: the
// REPL prints its prompt only once the helper said it listens, 300 ms
// after the start.
const peerREPL = rawEpollREPL + `
r, w = os.pipe()
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
port = srv.getsockname()[1]
if os.fork() == 0:
    os.close(r)
    time.sleep(0.3)
    os.write(w, b"listening\n")
    c, _ = srv.accept()
    while True:
        q = c.recv(1024)
        if not q:
            os._exit(0)
        c.sendall(b"answer " + q)
os.close(w)
srv.close()
ep.register(r, select.EPOLLIN)
conn = None
while True:
    for efd, _ in ep.poll():
        if efd == r:
            os.read(r, 100)
            ep.unregister(r)
            conn = socket.create_connection(("127.0.0.1", port))
            ep.register(conn.fileno(), select.EPOLLIN)
            out("< debuggee listening\r\ndebug> ")
        elif conn is not None and efd == conn.fileno():
            out(conn.recv(1024).decode() + "\r\ndebug> ")
        elif efd == fd:
            typed(os.read(fd, 1024), conn.sendall)
`

// A debugger on an event loop that talks to its debuggee over TCP on
// loopback (node inspect) waits on a socket beside the terminal, as an
// ssh client does. Its peer is a process of the foreground group, idle
// with nothing queued, so its read settles the send: started at a shell's
// prompt, once its prompt is there (not at its first read, before the
// debuggee started, which took the next send's input); then each send at
// its answer and prompt, not after the quiet window.
func TestSendToADebuggerOnLoopbackSettlesOnItsRead(t *testing.T) {
	checkREPLAnswers(t, peerREPL, "listening\ndebug> ", []string{"sb(2)", "c", "exec a"}, func(line string) string { return "answer " + line + "\ndebug> " })
}

// A debugger whose debuggee takes longer to start than the quiet an event
// loop's start may settle on (eventLoopStartQuiet) is not ready at its
// first read either: while a process of its group sleeps on a timer, the
// group is at work, and the start settles on the debugger's prompt.
func TestSendToADebuggerWhoseDebuggeeStartsSlowly(t *testing.T) {
	slow := strings.Replace(peerREPL, "time.sleep(0.3)", "time.sleep(1.2)", 1)
	if slow == peerREPL {
		t.Fatal("the debuggee's start is not in the script")
	}
	checkREPLAnswers(t, slow, "listening\ndebug> ", []string{"c"}, func(line string) string { return "answer " + line + "\ndebug> " })
}

// checkREPLAnswers runs script with python3 in a shell and checks that the
// start settles on stdin_read with output ending in started, and each of
// lines sent then settles on stdin_read with output ending in its answer.
func checkREPLAnswers(t *testing.T, script, started string, lines []string, answer func(line string) string) {
	t.Helper()
	need(t, "python3")
	path := filepath.Join(t.TempDir(), "repl.py")
	mustf(t, os.WriteFile(path, []byte(script), 0o600), "write the script")
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, "python3 "+path)
	if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, started) {
		t.Fatalf("start: settled as %s after %v with %q, want stdin_read at its prompt", res.WaitReason, res.Elapsed, res.Delta)
	}
	for _, line := range lines {
		ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
		res := sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: line, QuietWindow: 5 * time.Second, Timeout: 2 * waitLimit})
		cancel()
		if res.WaitReason != core.WaitStdinRead || !strings.HasSuffix(res.Delta, answer(line)) {
			t.Fatalf("send %q: settled as %s after %v with %q, want stdin_read at its answer", line, res.WaitReason, res.Elapsed, res.Delta)
		}
	}
}
