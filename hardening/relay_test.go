package hardening

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// farEndScript is a relay in the shape of an ssh client: it waits on the
// terminal and on a connection to a "far end" at once, forwards each line
// it reads to the far end, and prints what comes back. The far end (a
// thread of the same program) answers after a delay, as a remote shell
// does, and the relay exits once it printed the answer, as an ssh client
// does when the remote command ends. The connection is TCP ("tcp") or a
// socketpair ("pair").
const farEndScript = `
import select, socket, sys, threading, time
def far_end(conn):
    f = conn.makefile("rb")
    for line in f:
        time.sleep(0.2)
        conn.sendall(b"ANSWER " + line)
if sys.argv[1] == "tcp":
    srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
    link = socket.create_connection(srv.getsockname()); conn, _ = srv.accept()
else:
    link, conn = socket.socketpair()
threading.Thread(target=far_end, args=(conn,), daemon=True).start()
print("RELAY READY", flush=True)
while True:
    ready, _, _ = select.select([sys.stdin, link], [], [])
    if sys.stdin in ready:
        link.sendall(sys.stdin.readline().encode())
    if link in ready:
        sys.stdout.write(link.recv(4096).decode()); sys.stdout.flush()
        break
`

// TestRelaySendWaitsForTheFarEnd: a program that forwards the terminal
// (recognised by its TCP socket, or declared with SpawnRequest.Relay) is
// back in its read as soon as it forwarded the line; a send must still
// wait for the far end's answer rather than settle on stdin_read. The
// relay exits after the answer, so the send settles on that exit with the
// answer in its output, never on a quiet window that a loaded machine
// could pass before the answer came (the window is the hang bound).
func TestRelaySendWaitsForTheFarEnd(t *testing.T) {
	svc := newService(t, core.Options{})
	ctx := testCtx(t, 2*time.Minute)
	owner := core.NewOwner("relay")
	for _, tc := range []struct {
		name     string
		mode     string
		declared bool
	}{{"tcp-recognised", "tcp", false}, {"pair-declared", "pair", true}} {
		t.Run(tc.name, func(t *testing.T) {
			s := spawnSession(t, ctx, svc, owner, core.SpawnRequest{Type: "exec", Command: []string{"python3", "-c", farEndScript, tc.mode}, Relay: tc.declared, WithTap: true})
			// A loaded machine can start python3 after the spawn's
			// initial wait ended on its quiet window: wait for the relay.
			awaitOutput(t, ctx, s.Tap, "RELAY READY")
			s.Tap.Close()
			res := sendWait(t, ctx, svc, owner, s.ID, core.SendRequest{Data: "ping", QuietWindow: testenv.HangBound, Timeout: testenv.HangBound})
			if !strings.Contains(res.Delta, "ANSWER ping") || res.WaitReason != core.WaitSessionExit {
				t.Fatalf("the send settled as %s after %s: %q; want session_exit with the far end's answer", res.WaitReason, res.Elapsed, res.Delta)
			}
		})
	}
}
