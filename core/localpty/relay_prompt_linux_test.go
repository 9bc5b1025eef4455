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

// netClient is a database client in the shape of psql or redis-cli: it
// forwards what is typed to a server over TCP and prints what comes back,
// the server's prompt included, waiting on the terminal and the socket
// at once (select).
const netClient = `import os, select, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
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

// toyDB serves each connection a banner and a "db> " prompt, answers
// each line with its reverse, and asks for a password on "login".
func toyDB(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	mustf(t, err, "listen")
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.Write([]byte("welcome to toydb\ndb> "))
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					q := strings.TrimSpace(sc.Text())
					if q == "login" {
						c.Write([]byte("Password: "))
						continue
					}
					c.Write([]byte("result: " + reverse(q) + "\ndb> "))
				}
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

// A network client (psql, mysql, redis-cli) relays the terminal to a
// server outside the session, so its reads say nothing of the far end:
// a send waits for the server. The server's prompt settles it
// (remote_prompt, quiet 150 ms), as an ssh client's far shell does, not
// the send's quiet window; a question from the server does not.
func TestSendToANetworkClientSettlesOnTheFarPrompt(t *testing.T) {
	need(t, "python3")
	script := filepath.Join(t.TempDir(), "client.py")
	mustf(t, os.WriteFile(script, []byte(netClient), 0o600), "write the script")
	port := toyDB(t)
	svc, owner, info := shellService(t, core.SpawnRequest{})
	res := sendWait(t, svc, owner, info.ID, "python3 "+script+" "+strconv.Itoa(port))
	if res.WaitReason != core.WaitRemotePrompt || !strings.HasSuffix(res.Delta, "welcome to toydb\ndb> ") {
		t.Fatalf("start: settled as %s after %v with %q, want remote_prompt at the server's prompt", res.WaitReason, res.Elapsed, res.Delta)
	}
	for _, line := range []string{"select 1", "select 2"} {
		res := sendWait(t, svc, owner, info.ID, line)
		if res.WaitReason != core.WaitRemotePrompt || !strings.HasSuffix(res.Delta, "result: "+reverse(line)+"\ndb> ") {
			t.Fatalf("send %q: settled as %s after %v with %q, want remote_prompt at the answer", line, res.WaitReason, res.Elapsed, res.Delta)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	res = sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: "login", QuietWindow: 1500 * time.Millisecond, Timeout: 2 * waitLimit})
	if res.WaitReason != core.WaitInferredIdle || !strings.HasSuffix(res.Delta, "Password: ") {
		t.Fatalf("a question from the server: settled as %s with %q, want the quiet window (inferred_idle)", res.WaitReason, res.Delta)
	}
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}
