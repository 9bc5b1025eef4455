package ssh

import (
	"context"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
)

// Input written right after the program's channel closed fails with the
// typed SESSION_EXITED error, never an uncoded transport error (which the
// service reports as INTERNAL): the session writes until a write fails,
// and the first write that fails is the one right after the channel
// closed. With and without a PTY.
func TestSSHDWriteAfterChannelClosed(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	b := newBackend(nil)
	for _, noPTY := range []bool{false, true} {
		name := "pty"
		if noPTY {
			name = "no pty"
		}
		t.Run(name, func(t *testing.T) {
			tg := sshdTarget(t, srv, Auth{Password: srv.Password})
			tg.NoPTY = noPTY
			s := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c", "exit 3"}})
			defer closeSession(t, s)
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			var err error
			writes := 0
			for err == nil {
				_, err = s.Write(ctx, []byte("after the exit\n"))
				writes++
			}
			if ctx.Err() != nil {
				t.Fatalf("no write failed within %v (%d writes): %v", waitLimit, writes, err)
			}
			if code := core.CodeOf(err); code != core.CodeSessionExited {
				t.Fatalf("write %d after the exit: %v (code %q), want %s", writes, err, code, core.CodeSessionExited)
			}
			if strings.Contains(err.Error(), "ssh write") || !strings.Contains(err.Error(), "close the session") {
				t.Fatalf("the session-exited error carries the transport's write error or does not say what to do next: %v", err)
			}
			select {
			case <-s.Exited():
			case <-ctx.Done():
				t.Fatal("the exit is not known after a write failed as SESSION_EXITED")
			}
			if st := s.ExitStatus(); st.ExitCode != 3 {
				t.Fatalf("status %+v, want exit code 3", st)
			}
		})
	}
}
