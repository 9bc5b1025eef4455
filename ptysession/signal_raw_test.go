package ptysession

import (
	"strings"
	"testing"
)

// rawReader reads one byte of its terminal raw and prints it in hex.
const rawReader = `python3 -c 'import tty,os; tty.setraw(0); print("raw", flush=True); c=os.read(0, 1); print("got", c.hex(), flush=True)'`

// intrDisabledReader disables the terminal's interrupt character, as
// jshell's line editor does (ISIG stays on), and reads one byte.
const intrDisabledReader = `python3 -c 'import termios,os; a=termios.tcgetattr(0); a[3]&=~(termios.ICANON|termios.ECHO); a[6][termios.VINTR]=b"\0"; termios.tcsetattr(0, termios.TCSANOW, a); print("raw", flush=True); c=os.read(0, 1); print("got", c.hex(), flush=True)'`

// TestSignalToARawProgramIsItsKey interrupts a program that reads its
// terminal raw (ISIG off, as Node's REPL, an editor or an ssh client set
// it, or the interrupt character disabled, as jshell's line editor sets
// it): a person's Ctrl-C reaches such a program as the byte ^C, which it
// handles itself (an ssh client forwards it to the far end), where a
// kill(SIGINT) would end it (the ssh connection with it; jshell with its
// execution engine). The signal travels as the key, and the result says
// so.
func TestSignalToARawProgramIsItsKey(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		for _, c := range []struct {
			program string
			sig     Signal
			want    string
		}{
			{rawReader, "SIGINT", "got 03"},
			{rawReader, "SIGQUIT", "got 1c"},
			{rawReader, "SIGTSTP", "got 1a"},
			{intrDisabledReader, "SIGINT", "got 03"},
		} {
			owner, r, ctx := openPrinting(t, s, c.program, "raw\n")
			sr, err := s.Signal(ctx, owner, r.SessionID, c.sig)
			if err != nil || !sr.Delivered {
				t.Fatalf("%s: %+v %v", c.sig, sr, err)
			}
			if !sr.Raw || sr.Method != "tty-char" || sr.TargetPGID == 0 || sr.Leader {
				t.Errorf("%s: result %+v, want Raw, method tty-char, python3's group", c.sig, sr)
			}
			if !strings.Contains(sr.Output, c.want) {
				t.Errorf("%s: output %q, want %q: the program read its key", c.sig, sr.Output, c.want)
			}
			if text := RenderSignal(string(r.SessionID), sr); !strings.Contains(text, "reads the terminal raw") {
				t.Errorf("%s: text %q does not say the key went to a raw reader", c.sig, text)
			}
			if _, err := s.Close(ctx, owner, r.SessionID); err != nil {
				t.Fatal(err)
			}
		}
	})
}
