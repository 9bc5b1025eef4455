package scrollback

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// tokens are the pieces random terminal streams are built from: text,
// line ends, editing controls, every kind of escape sequence, markers,
// multi-byte and invalid UTF-8.
var tokens = []string{
	"a", "hello", "world ", "0123456789", "\t", " ", "~$ ",
	"\r\n", "\n", "\r", "\b", "\b\b",
	"\x1b[31m", "\x1b[0m", "\x1b[K", "\x1b[0K", "\x1b[2K", "\x1b[1K", "\x1b[?25l", "\x1b[12;40H", "\x1b[?2004h",
	"\x1b]0;title\x07", "\x1b]2;user@host: ~\x1b\\", "\x1b]133;A\x07", "\x1b]133;B\x07", "\x1b]133;C\x1b\\",
	"\x1b]133;D;0\x07", "\x1b]133;D;17\x1b\\", "\x1b]133;D\x07", "\x1bPq#0;2;0;0;0\x1b\\", "\x1b_apc\x1b\\",
	"\x1b(B", "\x1b#8", "\x1b7", "\x1b8", "\x1b=", "\x1b", "\x1b[", "\x1b]", "\x18", "\x1a",
	"é", "世界", "🙂", "\u00a0", "\xff", "\xc3", "\xe2\x82", "\xf0\x9f", "\x80", "\x00", "\x07", "\x7f",
	"50%\r100%", "abcdef\r12",
	"\x1b[D", "\x1b[3D", "\x1b[C", "\x1b[40C", "\x1b[5G", "\x1b[G", "\x1b[J", "\x1b[0J", "\x1b[2J",
	"\x1b[A", "\x1b[3A", "\x1b[99999999999A", "\x1b[1;5D", "\r\r\n\r\r\n", " \b",
	"\x1b[P", "\x1b[3P", "\x1b[@", "\x1b[4@", "\x1b[X", "\x1b[2X",
	"\x1b[?1049h", "\x1b[?1049l", "\x1b[?1;1047h", "\x1b[?1047l", "\x1bc", "\x1b[1049h",
	"\x1b[?2004h", "\x1b[?2004l", "\x1b[?1049;2004h", "\x1b[?25l", "\x1b[B", "\x1b[2B", "\n\x1b[A", "\x1b[9D\x1b[1B",
	"\x1b[2A\x1b[J", "\x1b[3A", "\x1b[4D\x1b[2A\r\x1b[J", "\r\r\n   ...: ",
	"\x1b[H", "\x1b[1;9H", "\x1b[5;1H", "\x1b[007f", "\x1b[;3H", "\x1b[99999999999;1H", "\x1b[2x;1H",
	"\x1b[s", "\x1b[u", "\x1b[?s", "\x1b7\x1b[24;0f", "\x1b[3;1H\x1b8",
}

// randStream returns a random stream of n tokens; some are raw random
// bytes and numbered words, so lines rarely repeat.
func randStream(r *rand.Rand, n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch r.IntN(10) {
		case 0:
			b.WriteByte(byte(r.IntN(256)))
		case 1:
			fmt.Fprintf(&b, "w%d", r.IntN(100000))
		case 2:
			b.WriteString(strings.Repeat("x", r.IntN(300)))
		default:
			b.WriteString(tokens[r.IntN(len(tokens))])
		}
	}
	return []byte(b.String())
}

// randChunks splits s at random points.
func randChunks(r *rand.Rand, s []byte) [][]byte {
	var out [][]byte
	for len(s) > 0 {
		n := 1 + r.IntN(min(len(s), 1+r.IntN(64)))
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// everything returns every line b can show, with a page as big as it gets.
func everything(b *Buffer) Page {
	return b.Page(PageRequest{Newest: true, Count: 1 << 30}, 0)
}
