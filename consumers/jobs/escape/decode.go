package escape

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode turns s into the bytes it denotes. It never fails: an escape it
// does not know is copied through as written, so Decode(s) == s for any s
// without a backslash.
func Decode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			return append(out, s[i:]...)
		}
		out = append(out, s[i:i+j]...)
		i += j
		var n int
		if out, n = decodeOne(out, s[i:]); n == 0 {
			// Unknown or malformed: keep the backslash and go on with the
			// next character, which is then read as ordinary text.
			out = append(out, '\\')
			n = 1
		}
		i += n
	}
	return out
}

// simple maps the one-letter escapes to their byte.
var simple = [256]byte{
	'n': '\n', 'r': '\r', 't': '\t', 'e': 0x1b, 'a': 0x07, 'b': 0x08,
}

// decodeOne appends the bytes of the escape at the start of s (s[0] is
// '\\') to out and returns how much of s they used, or n == 0 (and out
// unchanged) when the escape is not one it knows.
func decodeOne(out []byte, s string) ([]byte, int) {
	if len(s) < 2 {
		return out, 0
	}
	switch e := s[1]; e {
	case '\\':
		return append(out, '\\'), 2
	case '0':
		return append(out, 0), 2
	case 'n', 'r', 't', 'e', 'a', 'b':
		return append(out, simple[e]), 2
	case 'x':
		if len(s) >= 4 {
			if hi, ok := hexVal(s[2]); ok {
				if lo, ok := hexVal(s[3]); ok {
					return append(out, hi<<4|lo), 4
				}
			}
		}
	case 'c':
		if len(s) >= 3 {
			if ctl, ok := control(s[2]); ok {
				return append(out, ctl), 3
			}
		}
	case 'u':
		if r, n := decodeUnicode(s); n > 0 {
			return utf8.AppendRune(out, r), n
		}
	}
	return out, 0
}

// control returns the control character \cX denotes.
func control(x byte) (byte, bool) {
	switch {
	case x == '?':
		return 0x7f, true
	case x >= 'a' && x <= 'z':
		return x - 'a' + 1, true
	case x >= '@' && x <= '_': // @ A-Z [ \ ] ^ _
		return x - '@', true
	}
	return 0, false
}

// decodeUnicode decodes \uXXXX, combining a surrogate pair written as two
// escapes. A lone surrogate is not decoded (n == 0).
func decodeUnicode(s string) (r rune, n int) {
	r, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if r >= 0xdc00 || len(s) < 12 || s[6] != '\\' || s[7] != 'u' { // a low surrogate cannot start a pair
		return 0, 0
	}
	lo, ok := hex4(s[6:])
	if !ok {
		return 0, 0
	}
	if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
		return pair, 12
	}
	return 0, 0
}

// hex4 reads the four hex digits of "\uXXXX" at the start of s.
func hex4(s string) (rune, bool) {
	if len(s) < 6 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		v, ok := hexVal(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
