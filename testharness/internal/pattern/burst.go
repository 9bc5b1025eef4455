package pattern

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
)

// burstLine is the width of one burst line, its "\n" included.
const burstLine = 64

// burstAlphabet fills the burst lines; each line starts at a different
// letter so that a shifted or repeated line is caught.
const burstAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// trailerPrefix starts the burst's checksum line (after a "\n").
const trailerPrefix = "\nburst-end bytes="

// Burst returns the first n bytes of the burst pattern: 64-byte lines, each
// an 8-digit line number, a space, 54 letters starting at a letter that
// depends on the line, and "\n". The last line is cut at n.
func Burst(n int) []byte {
	if n <= 0 {
		return []byte{}
	}
	out := make([]byte, 0, n+burstLine)
	var line [burstLine]byte
	for k := 0; len(out) < n; k++ {
		s := strconv.Itoa(k % 100_000_000)
		copy(line[:8], "00000000")
		copy(line[8-len(s):8], s)
		line[8] = ' '
		for j := 9; j < burstLine-1; j++ {
			line[j] = burstAlphabet[(k+j)%len(burstAlphabet)]
		}
		line[burstLine-1] = '\n'
		out = append(out, line[:]...)
	}
	return out[:n]
}

// BurstTrailer returns the checksum line the burst child prints after the
// pattern of n bytes: "\nburst-end bytes=N crc32=XXXXXXXX\n".
func BurstTrailer(n int) string {
	return fmt.Sprintf("%s%d crc32=%08x\n", trailerPrefix, n, crc32.ChecksumIEEE(Burst(n)))
}

// ErrBurst is wrapped by every error VerifyBurst returns.
var ErrBurst = errors.New("burst output mismatch")

// VerifyBurst checks terminal output that should be exactly a burst:
// after turning "\r\n" into "\n" (a terminal's output processing), it must
// be the pattern of some n bytes followed by the checksum trailer for n,
// byte for byte. It returns n.
func VerifyBurst(out []byte) (int, error) {
	norm := bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))
	end := bytes.LastIndex(norm, []byte(trailerPrefix))
	if end < 0 {
		return 0, fmt.Errorf("%w: the checksum trailer is missing (%d bytes of output)", ErrBurst, len(out))
	}
	var n int
	var sum uint32
	trailer := norm[end+1:]
	if _, err := fmt.Sscanf(string(trailer), "burst-end bytes=%d crc32=%08x\n", &n, &sum); err != nil {
		return 0, fmt.Errorf("%w: unreadable trailer %.60q: %v", ErrBurst, trailer, err)
	}
	body := norm[:end]
	if len(body) != n {
		return 0, fmt.Errorf("%w: got %d pattern bytes, the trailer says %d", ErrBurst, len(body), n)
	}
	want := Burst(n)
	if !bytes.Equal(body, want) {
		i := 0
		for body[i] == want[i] {
			i++
		}
		return 0, fmt.Errorf("%w: pattern byte %d is %q, want %q", ErrBurst, i, body[i], want[i])
	}
	crc := crc32.ChecksumIEEE(body)
	if wantTrailer := fmt.Sprintf("burst-end bytes=%d crc32=%08x\n", n, crc); sum != crc || string(trailer) != wantTrailer {
		return 0, fmt.Errorf("%w: trailer %.60q, want %.60q", ErrBurst, trailer, wantTrailer)
	}
	return n, nil
}
