package ssh

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
)

// Stream on a real sshd: standard input reaches the command unchanged,
// its standard output comes back as the stream, standard error apart,
// and the exit status; Hold keeps one connection for several calls.
func TestStreamSSHD(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()

	release, err := b.Hold(ctx, tg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := b.Stream(ctx, tg, "cat; echo to-stderr >&2; exit 3")
	if err != nil {
		t.Fatal(err)
	}
	payload := "line one\n\x00\xff binary\n"
	if _, err := io.WriteString(st, payload); err != nil {
		t.Fatal(err)
	}
	if err := st.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(st)
	if err != nil || string(out) != payload {
		t.Fatalf("read %q, %v; want %q", out, err, payload)
	}
	<-st.Exited()
	<-st.StderrDone()
	if code := st.ExitStatus().ExitCode; code != 3 || strings.TrimSpace(st.Stderr()) != "to-stderr" {
		t.Fatalf("exit %d, stderr %q", code, st.Stderr())
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Run(ctx, tg, "true", RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := len(b.Connections()); n != 1 {
		t.Fatalf("%d connections while held, want 1", n)
	}
	release()
	release()
	if n := len(b.Connections()); n != 0 {
		t.Fatalf("%d connections after the release, want 0", n)
	}
}
