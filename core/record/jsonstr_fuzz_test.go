package record

import (
	"encoding/json"
	"math/bits"
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

// special8's lowest marked byte is the first byte that is not plain,
// whatever follows it (the borrow of one lane's test never marks a lane
// before it): every pair of bytes in every pair of adjacent lanes.
func TestSpecial8MarksTheFirstByteThatIsNotPlain(t *testing.T) {
	plain := func(c int) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	for c1 := range 256 {
		for c2 := range 256 {
			for lane := range 7 {
				w := uint64(0x4141414141414141)
				w = w&^(0xffff<<(8*lane)) | uint64(c1)<<(8*lane) | uint64(c2)<<(8*lane+8)
				want := 8
				switch {
				case !plain(c1):
					want = lane
				case !plain(c2):
					want = lane + 1
				}
				got := 8
				if m := special8(w); m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if got != want {
					t.Fatalf("bytes %#x %#x in lanes %d, %d: first marked lane %d, want %d", c1, c2, lane, lane+1, got, want)
				}
			}
		}
	}
}
