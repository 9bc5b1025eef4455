package ssh

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"testing/synctest"

	"github.com/ptyseam/ptyseam/core"
	gossh "golang.org/x/crypto/ssh"
)

// pipeServer is an in-process ssh server on one end of a net.Pipe, for
// tests inside a synctest bubble (every wait on the pipe is durable). It
// accepts any password, answers global requests (a refusal, as OpenSSH
// answers a keepalive), accepts the PTY, env, exec and shell requests of
// a session channel, and then calls started with the channel.
func pipeServer(t *testing.T, nc net.Conn, key gossh.Signer, started func(gossh.Channel)) {
	cfg := &gossh.ServerConfig{PasswordCallback: func(gossh.ConnMetadata, []byte) (*gossh.Permissions, error) { return nil, nil }}
	cfg.AddHostKey(key)
	sc, chans, reqs, err := gossh.NewServerConn(nc, cfg)
	if err != nil {
		t.Errorf("server handshake: %v", err)
		return
	}
	defer sc.Close()
	go gossh.DiscardRequests(reqs)
	for nch := range chans {
		ch, creqs, err := nch.Accept()
		if err != nil {
			continue
		}
		go func() {
			for r := range creqs {
				_ = r.Reply(r.Type != "signal", nil)
				if r.Type == "exec" || r.Type == "shell" {
					started(ch)
				}
			}
		}()
	}
}

// A server that closes a session's channel without an exit status (its
// program was killed without a report, or it never sends one) ends the
// session at once with the Reason that says so, on an event (the
// connection answers a request sent after the close, so it was not lost),
// never after a wait for the connection's death that may not come; a
// connection dropped under the channel ends it with "connection lost".
// Inside a synctest bubble, no time passes while the session learns it.
func TestChannelClosedWithoutExitStatus(t *testing.T) {
	for _, how := range []string{"channel closed", "connection dropped"} {
		t.Run(how, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				key := newSigner(t)
				kh := filepath.Join(t.TempDir(), "known_hosts")
				writeKnownFor(t, kh, "pipe.test", 22, key.PublicKey())
				var serverEnd net.Conn
				end := make(chan func(), 1)
				b := newBackend(nil)
				b.pool.dialNet = func(context.Context, string) (net.Conn, error) {
					c, s := bufPipe()
					serverEnd = s
					go pipeServer(t, s, key, func(ch gossh.Channel) {
						end <- func() {
							if how == "channel closed" {
								_ = ch.Close()
							} else {
								_ = serverEnd.Close()
							}
						}
					})
					return c, nil
				}
				tg := &Target{Host: "pipe.test", Port: 22, User: "test", Auth: Auth{Password: "pw"},
					HostKeys: HostKeyPolicy{KnownHostsFiles: []string{kh}}}
				s, err := b.Spawn(t.Context(), core.BackendRequest{Command: []string{"true"}, Options: tg})
				if err != nil {
					t.Fatal(err)
				}
				(<-end)()
				synctest.Wait()
				select {
				case <-s.Exited():
				default:
					t.Error("the session had not learnt its end once every goroutine waited")
					<-s.Exited() // time passes in the bubble: the test can end cleanly
				}
				want := "the server closed the channel without an exit status"
				if how == "connection dropped" {
					want = reasonConnectionLost
				}
				if st := s.ExitStatus(); st.Reason != want || st.ExitCode != -1 {
					t.Errorf("status %+v, want exit code -1 and reason %q", st, want)
				}
				if err := s.Close(t.Context()); err != nil {
					t.Fatalf("Close: %v", err)
				}
			})
		})
	}
}
