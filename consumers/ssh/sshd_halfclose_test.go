package ssh

import (
	"context"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
)

// A program without a PTY that closes its output and goes on reading
// still gets its input: the server's EOF is a half-close, so the
// session's input stays open until the channel is closed on both sides
// (a docker attach stream's input, by contrast, ends with its output).
// The program's exit code says what it read.
func TestSSHDInputAfterOutputEOF(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	tg.NoPTY = true
	s := spawn(t, b, tg, core.BackendRequest{Command: []string{"sh", "-c",
		`exec >&- 2>&-; read x; [ "$x" = after-eof ] && exit 7; exit 1`}})
	defer closeSession(t, s)
	select {
	case <-s.(*session).relay.OutputDone():
	case <-s.Exited():
		t.Fatalf("the program exited before its output ended: %+v", s.ExitStatus())
	case <-time.After(waitLimit):
		t.Fatal("the output did not end when the program closed it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if _, err := s.Write(ctx, []byte("after-eof\n")); err != nil {
		t.Fatalf("write after the output's end: %v", err)
	}
	select {
	case <-s.Exited():
	case <-time.After(waitLimit):
		t.Fatal("the program did not exit after its input")
	}
	if st := s.ExitStatus(); st.ExitCode != 7 {
		t.Fatalf("status %+v, want exit code 7 (the program read what was written after its output ended)", st)
	}
}
