package shellrun_test

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
)

const fuzzNonce = "0123456789abcdef0123456789abcdef"

// FuzzFramer feeds a terminal stream (echo, begin marker, body, end
// marker) in pieces of an arbitrary size: the framer must return exactly the
// body, whatever it contains.
func FuzzFramer(f *testing.F) {
	f.Add("hello\n", 0, uint8(3))
	f.Add("PTYSEAM_E_"+fuzzNonce+"x 1\n", 2, uint8(10))
	f.Add("no newline", 0, uint8(0))
	f.Add("\r\n\r\n", 255, uint8(200))
	f.Fuzz(func(t *testing.T, body string, code int, split uint8) {
		if code < 0 {
			code = -code
		}
		code %= 256
		// A body that contains the real end marker is impossible for a
		// command that cannot know the nonce.
		if strings.Contains(body, "PTYSEAM_E_"+fuzzNonce+" ") || strings.Contains(body, "PTYSEAM_B_"+fuzzNonce) {
			t.Skip()
		}
		term := strings.ReplaceAll(body, "\n", "\r\n")
		stream := "$ " + shellrun.Line("cmd", fuzzNonce) + "\r\n" + "PTYSEAM_B_" + fuzzNonce + "\r\n" + term +
			"\r\nPTYSEAM_E_" + fuzzNonce + " " + itoa(code) + "\r\n$ "
		fr := shellrun.NewFramer(fuzzNonce, 0)
		// Feed it in pieces of one size, as a terminal delivers chunks.
		step := int(split)%97 + 1
		var res shellrun.Result
		done := false
		for i := 0; i < len(stream) && !done; i += step {
			res, done = fr.Feed([]byte(stream[i:min(i+step, len(stream))]))
		}
		if !done {
			t.Fatalf("no frame found in %q", stream)
		}
		want := strings.ReplaceAll(term, "\r\n", "\n")
		if res.Output != want || res.ExitCode != code {
			t.Fatalf("got %q %d, want %q %d", res.Output, res.ExitCode, want, code)
		}
	})
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
