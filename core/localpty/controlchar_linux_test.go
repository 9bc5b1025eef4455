package localpty

import (
	"context"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// ControlChar reads the pty's own control characters, not the defaults,
// and whether the program reads the key raw (ISIG off, or the key
// disabled).
func TestControlCharReadsTheTermios(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{
		Command: []string{"sh", "-c", "stty intr ^G quit ^X susp undef; echo READY; read a; stty -isig; echo RAW; exec sleep 100"},
	})
	tm.waitFor("READY")
	r, ok := any(tm.s).(core.Prober)
	if !ok {
		t.Fatal("the session reads no control characters")
	}
	check := func(raw bool) {
		t.Helper()
		for sig, want := range map[core.Signal]core.ControlKey{
			core.SIGINT:  {Char: 0x07, Raw: raw},
			core.SIGQUIT: {Char: 0x18, Raw: raw},
			core.SIGTSTP: {Raw: true}, // disabled: the program reads ^Z itself
		} {
			if k, err := r.ControlChar(sig); err != nil || k != want {
				t.Errorf("%s: %+v %v, want %+v", sig, k, err, want)
			}
		}
		if k, err := r.ControlChar(core.SIGTERM); err == nil {
			t.Errorf("SIGTERM: %+v, want no key", k)
		}
	}
	check(false)
	tm.send("go\r")
	tm.waitFor("RAW")
	check(true)
}

// On a declared relay the service writes the terminal's interrupt
// character, as the pty defines it, instead of signalling the relay.
func TestRelayGetsTheTerminalsInterruptCharacter(t *testing.T) {
	need(t, "python3")
	svc := core.New(core.Options{})
	if _, err := svc.Register(NewExec(ExecOptions{Options: shortOpts(false)})); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	defer func() { _ = svc.Shutdown(ctx) }()
	owner := core.NewOwner("test")
	// A relay in raw mode (as ssh puts the terminal) that reports each byte.
	relay := `import sys, tty
tty.setraw(0)
sys.stdout.write("READY\r\n"); sys.stdout.flush()
while True:
    b = sys.stdin.buffer.read(1)
    sys.stdout.write("GOT %d\r\n" % b[0]); sys.stdout.flush()`
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: TypeExec, Relay: true,
		Command: []string{"sh", "-c", `stty intr ^G; exec python3 -c "$0"`, relay}})
	if err != nil {
		t.Fatal(err)
	}
	tap, err := svc.Tap(owner, sp.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()
	var out strings.Builder
	waitOut := func(want string) {
		t.Helper()
		for !strings.Contains(out.String(), want) {
			chunk, err := tap.Next(ctx)
			if err != nil {
				t.Fatalf("waiting for %q: %v; output %q", want, err, out.String())
			}
			out.Write(chunk)
		}
	}
	page, _ := svc.Read(owner, sp.ID, core.PageRequest{Count: 100})
	out.WriteString(page.Text())
	waitOut("READY")
	res, err := svc.Signal(ctx, owner, sp.ID, core.SignalRequest{Signal: core.SIGINT})
	if err != nil || res.Method != "tty-char" {
		t.Fatalf("signal: %+v %v", res, err)
	}
	waitOut("GOT 7")
	if _, err := svc.Signal(ctx, owner, sp.ID, core.SignalRequest{Signal: core.SIGTERM}); !strings.Contains(errString(err), "SIGNAL_REFUSED") {
		t.Fatalf("SIGTERM to a relay: %v", err)
	}
	if info, _ := svc.Info(owner, sp.ID); info.Status.Exited() {
		t.Fatalf("the relay died: %v", info.Status)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
