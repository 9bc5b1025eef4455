package record

import (
	"encoding/json"
	"testing"
)

// FuzzAppendJSONString: the encoding decodes, with encoding/json, to the
// input with invalid UTF-8 replaced, as encoding/json's own encoding does.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[1;31mred\x1b[0m\r\n", "quote \" back \\ tab \t", "é中\xff\xfe", "\u2028\u2029\x7f\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		enc := appendJSONString(nil, s)
		var got string
		if err := json.Unmarshal(enc, &got); err != nil {
			t.Fatalf("%q encodes to invalid JSON %s: %v", s, enc, err)
		}
		std, _ := json.Marshal(string(s))
		var want string
		_ = json.Unmarshal(std, &want)
		if got != want {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

// plain8 agrees with a byte by byte test on every byte in every lane.
func TestPlain8(t *testing.T) {
	for c := range 256 {
		want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
		for lane := range 8 {
			w := uint64(0x4141414141414141)
			w = w&^(0xff<<(8*lane)) | uint64(c)<<(8*lane)
			if got := plain8(w); got != want {
				t.Fatalf("byte %#x in lane %d: plain8 %v, want %v", c, lane, got, want)
			}
		}
	}
}
