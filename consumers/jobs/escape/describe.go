package escape

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Describe renders bytes in the notation Decode reads, so that
// Decode(Describe(b)) == b for every b: printable text as itself, a
// backslash doubled, \n \r \t \e \a \b and \0 by name, DEL as \c?, other
// control bytes and invalid UTF-8 as \xHH, and non-printable characters as
// \uXXXX (or \xHH bytes above U+FFFF). It is the echo a tool shows of what
// it wrote.
func Describe(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n <= 1:
			writeHex(&sb, b[0])
		case r == '\\':
			sb.WriteString(`\\`)
		case r < 0x80 && named[r] != "":
			sb.WriteString(named[r])
		case r < 0x20:
			writeHex(&sb, byte(r))
		case r == 0x7f:
			sb.WriteString(`\c?`)
		case unicode.IsPrint(r) || r == ' ':
			sb.Write(b[:n])
		case r <= 0xffff:
			sb.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				sb.WriteByte(hexDigits[(r>>uint(shift))&0xf])
			}
		default:
			for _, c := range b[:n] {
				writeHex(&sb, c)
			}
		}
		b = b[n:]
	}
	return sb.String()
}

const hexDigits = "0123456789abcdef"

var named = [0x80]string{
	'\n': `\n`, '\r': `\r`, '\t': `\t`, 0x1b: `\e`, 0x07: `\a`, 0x08: `\b`, 0: `\0`,
}

func writeHex(sb *strings.Builder, c byte) {
	sb.WriteString(`\x`)
	sb.WriteByte(hexDigits[c>>4])
	sb.WriteByte(hexDigits[c&0xf])
}
