package ssh

import (
	"context"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness"
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
			t.Logf("write %d failed: %v", writes, err)
			testharness.WantEndedWrite(t, ctx, s, err, "ssh", 3)
		})
	}
}
