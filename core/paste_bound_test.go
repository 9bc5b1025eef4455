package core_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// byteCounter answers each read with the number of bytes it has read in
// all, then its prompt (the first argument). With a second argument
// "paste" it asks for bracketed paste and hides the cursor, as an editor
// that reads pastes does.
const byteCounter = `
import os, sys, termios
a = termios.tcgetattr(0); a[3] &= ~(termios.ICANON | termios.ECHO); termios.tcsetattr(0, termios.TCSANOW, a)
prompt = sys.argv[1].encode()
os.write(1, (b"\x1b[?2004h\x1b[?25l" if sys.argv[2:] == ["paste"] else b"") + prompt)
total = 0
while True:
    total += len(os.read(0, 65536))
    os.write(1, ("total=%d;\r\n" % total).encode() + prompt)
`

// TestPasteNeverWritesMoreThanTheSendLimit: what a send adds to its data
// (a paste's markers, the blank lines that end blocks at Python's
// console) never takes it past Options.MaxSendBytes; a send that would
// pass it is typed as it is.
func TestPasteNeverWritesMoreThanTheSendLimit(t *testing.T) {
	const limit = 120
	for _, c := range []struct {
		name string
		argv []string
		data string
	}{
		{"paste", []string{"> ", "paste"}, strings.Repeat("a:\n b\n\n", (limit-1)/7)}, // a paste adds 12 to each block of 7
		{"console", []string{">>> "}, strings.Repeat("a:\n b\n", (limit-1)/6)},        // the console's gets a blank line before each
	} {
		t.Run(c.name, func(t *testing.T) {
			svc := newService(t, core.Options{MaxSendBytes: limit})
			owner := core.NewOwner("agent")
			s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: append([]string{"python3", "-c", byteCounter}, c.argv...)})
			if err != nil {
				t.Fatal(err)
			}
			waitPartialLine(t, svc, owner, s.ID, c.argv[0])
			op, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: c.data})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := op.Wait(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			want := len(c.data) + 1
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
		})
	}
}
