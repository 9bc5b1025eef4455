package record

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 as U+FFFD. It does what
// encoding/json does for a string without its HTML escaping and without
// an allocation per call: terminal output is mostly plain text, copied in
// runs.
func appendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	dst = appendJSONChars(dst, s)
	return append(dst, '"')
}

// Masks for testing eight bytes at once (the bytes of a word that are
// zero, or below a bound, have their high bit set in the result).
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special8 returns a mask with the high bit set in each byte of w that
// needs attention (below 0x20, '"', '\\', or not ASCII), at least in the
// first such byte (the lowest): a byte after it may be marked too (the
// subtractions borrow across it), never one before it. Zero means the
// eight bytes are plain printable ASCII, copied as they are.
//
// A byte below 0x80 gets its high bit from a subtraction only when it is
// below 0x20 (w - 0x20) or equal to the quote or the backslash (zero after
// the xor, minus one); a byte from 0x80 up has it already (w). A byte
// borrows from the next only when it is marked itself, so no byte before
// the first marked one is: the four tests share one mask, nine operations
// for eight bytes.
func special8(w uint64) uint64 {
	ctl := w - ones*0x20
	quote := (w ^ ones*'"') - ones
	back := (w ^ ones*'\\') - ones
	return (ctl | quote | back | w) & highs
}

// plain8 reports whether the eight bytes of w are printable ASCII other
// than '"' and '\\': nothing to escape or decode.
func plain8(w uint64) bool { return special8(w) == 0 }

// skipPlain returns the index of the first byte of s at or after i that
// is not plain printable ASCII (see special8), or len(s): thirty-two bytes
// a turn while it can (one test of the four words' masks together), then
// eight, the word holding that byte telling its place.
func skipPlain(s []byte, i int) int {
	for ; i+32 <= len(s); i += 32 {
		w := s[i : i+32 : i+32]
		m0 := special8(binary.LittleEndian.Uint64(w))
		m1 := special8(binary.LittleEndian.Uint64(w[8:]))
		m2 := special8(binary.LittleEndian.Uint64(w[16:]))
		m3 := special8(binary.LittleEndian.Uint64(w[24:]))
		if m0|m1|m2|m3 != 0 {
			switch {
			case m0 != 0:
				return i + bits.TrailingZeros64(m0)>>3
			case m1 != 0:
				return i + 8 + bits.TrailingZeros64(m1)>>3
			case m2 != 0:
				return i + 16 + bits.TrailingZeros64(m2)>>3
			}
			return i + 24 + bits.TrailingZeros64(m3)>>3
		}
	}
	for ; i+8 <= len(s); i += 8 {
		if m := special8(binary.LittleEndian.Uint64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			break
		}
	}
	return i
}

// appendJSONChars appends the characters of s as they are inside a JSON
// string (appendJSONString without the quotes).
func appendJSONChars(dst, s []byte) []byte {
	start := 0
	for i := skipPlain(s, 0); i < len(s); i = skipPlain(s, i) {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, `\ufffd`...)
				i++
				start = i
				continue
			}
			// U+2028 and U+2029 are valid JSON; nothing to escape.
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
			if i+1 < len(s) && s[i+1] == '\n' { // a line end, most often
				dst = append(dst, '\\', 'n')
				i++
			}
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	return append(dst, s[start:]...)
}
