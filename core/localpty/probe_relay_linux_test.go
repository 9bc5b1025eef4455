package localpty

import (
	"net"
	"strconv"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// relayScript waits on the terminal and on a second descriptor at once:
// a TCP connection to a peer outside the session (what an ssh client
// does: "tcp" and the peer's port), a TCP connection on loopback to
// itself, whose other end a thread waits to read ("tcp-in-group": a peer
// the probe sees waiting, as node inspect's debuggee), or one end of a
// socketpair (an event loop's self-pipe, as in
// prompt_toolkit).
const relayScript = `
import select, socket, sys, threading, time
if sys.argv[1] == "tcp":
    other = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
elif sys.argv[1] == "tcp-in-group":
    srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
    other = socket.create_connection(srv.getsockname()); peer, _ = srv.accept()
    threading.Thread(target=peer.recv, args=(1,), daemon=True).start()
    time.sleep(0.05)  # the thread blocks in its recv
else:
    other, peer = socket.socketpair()
print("WAITING", flush=True)
while True:
    select.select([sys.stdin, other], [], [])
    print("GOT", sys.stdin.readline().strip(), flush=True)
`

func TestProbeRelayOverTCP(t *testing.T) {
	need(t, "python3")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	mustf(t, err, "listen")
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open until the listener closes
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	for _, tc := range []struct {
		mode  string
		relay bool
	}{{"tcp", true}, {"tcp-in-group", false}, {"socketpair", false}} {
		t.Run(tc.mode, func(t *testing.T) {
			tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
				Command: []string{"python3", "-c", relayScript, tc.mode, port},
			})
			tm.waitFor("WAITING")
			st := probeUntil(t, tm.s, "python in select on the terminal", func(st foreground) bool { return st.ReadingInput })
			if st.Relay != tc.relay {
				t.Fatalf("%s: %+v, want Relay %v", tc.mode, st, tc.relay)
			}
			// The verdict holds after the program woke for input and
			// waits again.
			tm.send("hello\r")
			tm.waitFor("GOT hello")
			st = probeUntil(t, tm.s, "python back in select", func(st foreground) bool { return st.ReadingInput })
			if st.Relay != tc.relay {
				t.Fatalf("%s after input: %+v, want Relay %v", tc.mode, st, tc.relay)
			}
		})
	}
}
