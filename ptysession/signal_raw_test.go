package ptysession

import (
	"strings"
	"testing"
)

// TestSignalToARawProgramIsItsKey interrupts a program that reads its
// terminal raw (ISIG off, as Node's REPL, an editor or an ssh client set
// it): a person's Ctrl-C reaches such a program as the byte ^C, which it
// handles itself (an ssh client forwards it to the far end), where a
// kill(SIGINT) would end it (the ssh connection with it). The signal
// travels as the key, and the result says so.
func TestSignalToARawProgramIsItsKey(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		for _, c := range []struct {
			sig  Signal
			want string
		}{
			{"SIGINT", "got 03"},
			{"SIGQUIT", "got 1c"},
			{"SIGTSTP", "got 1a"},
		} {
			owner, r, ctx := openPrinting(t, s, `python3 -c 'import tty,os; tty.setraw(0); print("raw", flush=True); c=os.read(0, 1); print("got", c.hex(), flush=True)'`, "raw\n")
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
