package record

import (
	"bytes"
	"testing"
)

// BenchmarkAppendJSONChars encodes 256 KiB of terminal text lines (the
// lines of BenchmarkIngest) as JSON string characters.
func BenchmarkAppendJSONChars(b *testing.B) {
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	s := bytes.Repeat(line, 256<<10/len(line))
	dst := make([]byte, 0, 2*len(s))
	b.SetBytes(int64(len(s)))
	for range b.N {
		dst = appendJSONChars(dst[:0], s)
	}
}
