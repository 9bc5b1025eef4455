package escape

import (
	"strings"
	"testing"
)

// BenchmarkDecode measures decoding of input mixing text and escapes.
func BenchmarkDecode(b *testing.B) {
	in := strings.Repeat(`npm run dev\n\x03\e[A\cC plain text \u00e9 `, 256)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		_ = Decode(in)
	}
}
