package ssh

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
)

func TestSSHDRunCollectsOutputExitCodeAndBanner(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{Banner: "Authorized use only\n"})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()

	// One string, interpreted by the remote shell; output exact (no PTY).
	res, err := b.Run(ctx, tg, `echo "a b" | tr a-z A-Z; printf 'no newline'; exit 3`, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Output) != "A B\nno newline" || res.ExitCode != 3 || res.Banner != "Authorized use only\n" || res.Truncated {
		t.Fatalf("result %+v (output %q)", res, res.Output)
	}
	// stderr is in the output too (its order against stdout is the order
	// the two streams arrived in).
	if res, err = b.Run(ctx, tg, `echo err >&2`, RunOptions{}); err != nil || string(res.Output) != "err\n" || res.ExitCode != 0 {
		t.Fatalf("stderr: %+v (output %q) %v", res, res.Output, err)
	}

	// Killed by a signal; bounded output keeps the newest part.
	res, err = b.Run(ctx, tg, `seq 1 1000; kill -TERM $$`, RunOptions{MaxOutput: 9})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Output) != "999\n1000\n" || !res.Truncated || res.Status.Signal != "SIGTERM" || res.ExitCode != -1 {
		t.Fatalf("result %+v (output %q)", res, res.Output)
	}

	// On a PTY when asked.
	res, err = b.Run(ctx, tg, `test -t 1 && echo tty`, RunOptions{PTY: true})
	if err != nil || string(res.Output) != "tty\r\n" || res.ExitCode != 0 {
		t.Fatalf("pty run: %+v (output %q) %v", res, res.Output, err)
	}

	// A deadline ends the command, and nothing is left on the server. A
	// shell session holds the connection, so the deadline bounds the
	// command, not the login.
	sh := spawn(t, b, tg, core.BackendRequest{})
	short, cancelShort := context.WithTimeout(ctx, time.Second)
	defer cancelShort()
	start := time.Now()
	res, err = b.Run(short, tg, `echo started; exec sleep 100`, RunOptions{})
	if !errors.Is(err, context.DeadlineExceeded) || strings.Contains(string(res.Output), "Authorized") {
		t.Fatalf("deadline run: %+v %v", res, err)
	}
	closeSession(t, sh)
	// A run that ignored its deadline would take the whole sleep (100 s):
	// the bound tells that apart, with room for a loaded machine.
	if el := time.Since(start); el > 50*time.Second {
		t.Fatalf("the deadline run took %v", el)
	}
	for deadline := time.Now().Add(waitLimit); len(srv.Remaining()) > 1; {
		if time.Now().After(deadline) {
			t.Fatalf("remote processes left: %v", srv.Remaining())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := len(b.Connections()); n != 0 {
		t.Fatalf("%d connections left", n)
	}
}
