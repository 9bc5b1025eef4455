package localpty

import (
	"bufio"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// netClient is a client in the shape of nc or mongosh: it
// forwards what is typed to a server over TCP ("tcp PORT") or a UNIX
// socket ("unix PATH") and prints what comes back, the server's prompt
// included, waiting on the terminal and the socket at once (select).
const netClient = `import os, select, socket, sys
if sys.argv[1] == "tcp":
    s = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
else:
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[2])
while True:
    r, _, _ = select.select([0, s], [], [])
    if s in r:
        d = s.recv(4096)
        if not d:
            break
        os.write(1, d)
    if 0 in r:
        line = os.read(0, 4096)
        if not line:
            break
        s.sendall(line)
`

// toyDB serves a connection as a database server: a banner and a "db> "
// prompt, each line answered with its reverse after 300 ms (a query at
// work), a password asked on "login" and a debugger's prompt shown on
// "pdb".
func toyDB(c net.Conn) {
	c.Write([]byte("welcome to toydb\ndb> "))
	sc := bufio.NewScanner(c)
	for sc.Scan() {
		q := strings.TrimSpace(sc.Text())
		time.Sleep(300 * time.Millisecond)
		switch q {
		case "login":
			c.Write([]byte("Password: "))
		case "pdb":
			c.Write([]byte("> /srv/app.py(3)handle()\n(Pdb) "))
		default:
			c.Write([]byte("result: " + reverse(q) + "\ndb> "))
		}
	}
}

// A network client (nc, socat, mongosh) relays the terminal to a
// server outside the session, over TCP or a UNIX socket, so its reads say
// nothing of the far end: a send waits for the server (settled at the
// client's read, the answer would come with the next send). The server's
// prompt settles it (remote_prompt, quiet 150 ms), as an ssh client's far
// shell does, not the send's quiet window, and so does a debugger's
// "(Pdb) "; a question from the server does not.
func TestSendToANetworkClientSettlesOnTheFarPrompt(t *testing.T) {
	need(t, "python3")
	dir := t.TempDir()
	script := filepath.Join(dir, "client.py")
	mustf(t, os.WriteFile(script, []byte(netClient), 0o600), "write the script")
	port := acceptEach(t, "tcp", "127.0.0.1:0", toyDB).(*net.TCPAddr).Port
	path := filepath.Join(dir, "db.sock")
	acceptEach(t, "unix", path, toyDB)
	for _, target := range []string{"tcp " + strconv.Itoa(port), "unix " + path} {
		t.Run(strings.Fields(target)[0], func(t *testing.T) {
			svc, owner, info := shellService(t, core.SpawnRequest{})
			res := sendWait(t, svc, owner, info.ID, "python3 "+script+" "+target)
			if res.WaitReason != core.WaitRemotePrompt || !strings.HasSuffix(res.Delta, "welcome to toydb\ndb> ") {
				t.Fatalf("start: settled as %s after %v with %q, want remote_prompt at the server's prompt", res.WaitReason, res.Elapsed, res.Delta)
			}
			for _, line := range []string{"select 1", "select 2"} {
				res := sendWait(t, svc, owner, info.ID, line)
				if res.WaitReason != core.WaitRemotePrompt || !strings.HasSuffix(res.Delta, "result: "+reverse(line)+"\ndb> ") {
					t.Fatalf("send %q: settled as %s after %v with %q, want remote_prompt at the answer", line, res.WaitReason, res.Elapsed, res.Delta)
				}
			}
			if res := sendWait(t, svc, owner, info.ID, "pdb"); res.WaitReason != core.WaitRemotePrompt || !strings.HasSuffix(res.Delta, "\n(Pdb) ") {
				t.Fatalf("a debugger's prompt from the server: settled as %s after %v with %q, want remote_prompt", res.WaitReason, res.Elapsed, res.Delta)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
			defer cancel()
			res = sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: "login", QuietWindow: 3 * time.Second, Timeout: 2 * waitLimit})
			if res.WaitReason != core.WaitInferredIdle || !strings.HasSuffix(res.Delta, "Password: ") {
				t.Fatalf("a question from the server: settled as %s with %q, want the quiet window (inferred_idle)", res.WaitReason, res.Delta)
			}
		})
	}
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// TestSendToAPTYRelaySettlesOnTheInnerPrompt types into script(1), which
// runs a shell on a terminal of its own and relays it: script always
// reads the session's terminal, so its read says nothing of the inner
// shell, and a send settled as stdin_read before the inner shell had
// answered (an "exit" there, and the next line went to a script still
// ending). A program that waits on the terminal and on a PTY master is a
// relay: the send settles on the inner shell's prompt.
func TestSendToAPTYRelaySettlesOnTheInnerPrompt(t *testing.T) {
	need(t, "script")
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, `script -q -c 'bash --norc --noprofile' /dev/null`)
	if res.WaitReason != core.WaitRemotePrompt || !strings.HasSuffix(res.Delta, "# ") {
		t.Fatalf("start: settled as %s after %v with %q, want remote_prompt at the inner prompt", res.WaitReason, res.Elapsed, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, `PS1='inner$ '`)
	if res.WaitReason != core.WaitRemotePrompt || !strings.HasSuffix(res.Delta, "inner$ ") {
		t.Fatalf("PS1: settled as %s after %v with %q, want remote_prompt at the new prompt", res.WaitReason, res.Elapsed, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, "sleep 0.5; echo inner-$((6*7))")
	if res.WaitReason != core.WaitRemotePrompt || !strings.Contains(res.Delta, "inner-42") || !strings.HasSuffix(res.Delta, "inner$ ") {
		t.Fatalf("a command: settled as %s after %v with %q, want remote_prompt after its output", res.WaitReason, res.Elapsed, res.Delta)
	}
	res = sendWait(t, svc, owner, info.ID, "exit")
	wantPrompt(t, "leaving script", res)
}
