package gdbmi

import "strings"

// unquote decodes the c-string that starts at s[i] (which must be '"') and
// returns its content and the index just past the closing quote. Strings
// without escapes are returned as substrings of s (no copy).
func unquote(s string, i int) (string, int, error) {
	start := i
	i++
	j := i
	for j < len(s) {
		c := s[j]
		if c == '"' {
			return s[i:j], j + 1, nil
		}
		if c == '\\' {
			break
		}
		j++
	}
	if j >= len(s) {
		return "", 0, syntaxErrorf(s, start, "unterminated c-string")
	}
	// Slow path: escapes.
	b := make([]byte, 0, j-i+16)
	b = append(b, s[i:j]...)
	for j < len(s) {
		c := s[j]
		switch c {
		case '"':
			return string(b), j + 1, nil
		case '\\':
			if j+1 >= len(s) {
				return "", 0, syntaxErrorf(s, start, "unterminated c-string")
			}
			esc := s[j+1]
			switch esc {
			case 'n':
				b = append(b, '\n')
			case 't':
				b = append(b, '\t')
			case 'r':
				b = append(b, '\r')
			case 'a':
				b = append(b, '\a')
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'v':
				b = append(b, '\v')
			case 'e', 'E':
				b = append(b, 0x1b)
			case '\\', '"', '\'', '?':
				b = append(b, esc)
			case '0', '1', '2', '3', '4', '5', '6', '7':
				// 1 to 3 octal digits; gdb always prints three.
				v := 0
				k := j + 1
				for n := 0; n < 3 && k < len(s) && s[k] >= '0' && s[k] <= '7'; n++ {
					v = v*8 + int(s[k]-'0')
					k++
				}
				if v > 0xff {
					return "", 0, syntaxErrorf(s, j, "octal escape \\%s is larger than a byte", s[j+1:k])
				}
				b = append(b, byte(v))
				j = k
				continue
			case 'x':
				v, n := 0, 0
				k := j + 2
				for n < 2 && k < len(s) && isHex(s[k]) {
					v = v*16 + hexVal(s[k])
					k++
					n++
				}
				if n == 0 {
					return "", 0, syntaxErrorf(s, j, "\\x escape without hex digits")
				}
				b = append(b, byte(v))
				j = k
				continue
			default:
				return "", 0, syntaxErrorf(s, j, "unknown escape \\%s", printable(esc))
			}
			j += 2
		default:
			b = append(b, c)
			j++
		}
	}
	return "", 0, syntaxErrorf(s, start, "unterminated c-string")
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}

// Unquote decodes one complete MI c-string (with its surrounding quotes),
// as gdb prints them: \n, \t, \r, \a, \b, \f, \v, \e, \\, \", \', \?,
// octal escapes of one to three digits (gdb prints three for every byte
// outside printable ASCII, so UTF-8 text arrives as one escape per byte and
// comes back as the same bytes) and \x escapes.
func Unquote(s string) (string, error) {
	if len(s) == 0 || s[0] != '"' {
		return "", syntaxErrorf(s, 0, "expected '\"' to start a c-string")
	}
	out, end, err := unquote(s, 0)
	if err != nil {
		return "", err
	}
	if end != len(s) {
		return "", syntaxErrorf(s, end, "unexpected text after the c-string")
	}
	return out, nil
}

// Quote renders s as an MI c-string: quotes, backslashes and control bytes
// are escaped (control bytes without a short escape as three octal
// digits); bytes from 0x80 up are kept as they are. The result is what
// gdb's command parser expects for a quoted command argument.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				b.WriteByte('\\')
				b.WriteByte('0' + c>>6)
				b.WriteByte('0' + (c>>3)&7)
				b.WriteByte('0' + c&7)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func printable(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(rune(c))
	}
	const hexdigits = "0123456789abcdef"
	return "x" + string(hexdigits[c>>4]) + string(hexdigits[c&15])
}
