package localpty

import (
	"net"
	"path/filepath"
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
// prompt_toolkit); or a UNIX stream connection to a listener outside the
// session ("unix" and its path: nc -U to a local server) or to one of its
// own ("unix-in-group").
const relayScript = `
import os, select, socket, sys, threading, time
if sys.argv[1] == "tcp":
    other = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
elif sys.argv[1] == "unix":
    other = socket.socket(socket.AF_UNIX); other.connect(sys.argv[2])
elif sys.argv[1] == "unix-in-group":
    path = os.path.join(os.path.dirname(sys.argv[2]), "own.sock")
    srv = socket.socket(socket.AF_UNIX); srv.bind(path); srv.listen(1)
    other = socket.socket(socket.AF_UNIX); other.connect(path); peer, _ = srv.accept()
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

// TestProbeRelayOverASocket: a wait on the terminal and on a connection
// to a process outside the foreground group is a relay's; on a socketpair
// or a connection of the group's own it is not.
func TestProbeRelayOverASocket(t *testing.T) {
	need(t, "python3")
	port := strconv.Itoa(holdConnections(t, "tcp", "127.0.0.1:0").(*net.TCPAddr).Port)
	sock := filepath.Join(t.TempDir(), "server.sock")
	holdConnections(t, "unix", sock)
	for _, tc := range []struct {
		mode, arg string
		relay     bool
	}{{"tcp", port, true}, {"tcp-in-group", port, false}, {"socketpair", port, false}, {"unix", sock, true}, {"unix-in-group", sock, false}} {
		t.Run(tc.mode, func(t *testing.T) {
			tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
				Command: []string{"python3", "-c", relayScript, tc.mode, tc.arg},
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

// holdConnections listens on address, outside any session, and holds
// every connection open until the test ends; it returns the address.
func holdConnections(t *testing.T, network, address string) net.Addr {
	t.Helper()
	ended := make(chan struct{})
	t.Cleanup(func() { close(ended) })
	return acceptEach(t, network, address, func(net.Conn) { <-ended })
}

// acceptEach listens on address, outside any session, until the test
// ends, and serves each connection with serve, closing it after; it
// returns the address.
func acceptEach(t *testing.T, network, address string, serve func(net.Conn)) net.Addr {
	t.Helper()
	ln, err := net.Listen(network, address)
	mustf(t, err, "listen on %s", address)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return ln.Addr()
}
