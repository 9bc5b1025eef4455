package core_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// byteCounter asks for bracketed paste and hides the cursor, as an
// editor that reads pastes does, and answers each read with the number
// of bytes it has read in all.
const byteCounter = `
import os, termios
a = termios.tcgetattr(0); a[3] &= ~(termios.ICANON | termios.ECHO); termios.tcsetattr(0, termios.TCSANOW, a)
os.write(1, b"\x1b[?2004h\x1b[?25l> ")
total = 0
while True:
    total += len(os.read(0, 65536))
    os.write(1, ("total=%d;\r\n> " % total).encode())
`

// TestPasteNeverWritesMoreThanTheSendLimit: the markers a paste adds
// never take a send past Options.MaxSendBytes; a send whose paste would
// is typed as it is.
func TestPasteNeverWritesMoreThanTheSendLimit(t *testing.T) {
	const limit = 120
	svc := newService(t, core.Options{MaxSendBytes: limit})
	owner := core.NewOwner("agent")
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"python3", "-c", byteCounter}})
	if err != nil {
		t.Fatal(err)
	}
	waitPartialLine(t, svc, owner, s.ID, "> ")
	data := strings.Repeat("a:\n b\n\n", (limit-1)/7) // blocks of 7 bytes; a paste adds 12 to each
	op, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := op.Wait(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	want := len(data) + 1
	deadline := time.Now().Add(testenv.HangBound)
	for got := 0; got != want; time.Sleep(20 * time.Millisecond) {
		page, err := svc.Read(owner, s.ID, core.PageRequest{Count: 100, Newest: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range page.Lines {
			if _, f, ok := strings.Cut(line, "total="); ok {
				n, _ := strconv.Atoi(f[:strings.IndexByte(f, ';')])
				got = max(got, n)
			}
		}
		if got > want || time.Now().After(deadline) {
			t.Fatalf("the program read %d bytes of a %d-byte send under a limit of %d", got, want, limit)
		}
	}
}
