package keys

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core"
)

// FuzzEncode checks that Encode never panics, fails only with
// INVALID_ARGUMENT naming the key, is the concatenation of the names'
// single encodings, and always emits valid UTF-8 for valid input.
func FuzzEncode(f *testing.F) {
	for _, s := range []string{"Enter", "C-x", "M-C-Up", "F12", "é", "S-Tab", "Foo", "C-", ""} {
		f.Add(s, "Up", true)
	}
	f.Fuzz(func(t *testing.T, a, b string, app bool) {
		got, err := Encode([]string{a, b}, app)
		ea, erra := Encode([]string{a}, app)
		eb, errb := Encode([]string{b}, app)
		if err != nil {
			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Fatalf("error %v is not INVALID_ARGUMENT", err)
			}
			var ke *KeyError
			if !errors.As(err, &ke) || (ke.Name != a && ke.Name != b) {
				t.Fatalf("error %v does not name a key", err)
			}
			if erra == nil && errb == nil {
				t.Fatalf("pair fails (%v) but each name encodes", err)
			}
			return
		}
		if erra != nil || errb != nil {
			t.Fatalf("pair encodes but a single name fails: %v %v", erra, errb)
		}
		if !bytes.Equal(got, append(ea, eb...)) {
			t.Fatalf("Encode(%q,%q) = %q, not %q+%q", a, b, got, ea, eb)
		}
		if utf8.ValidString(a) && utf8.ValidString(b) && !utf8.Valid(got) {
			t.Fatalf("invalid UTF-8 %q from valid names", got)
		}
		if len(got) == 0 {
			t.Fatalf("names %q %q encode to nothing", a, b)
		}
	})
}
