package screen

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// emulatorReplies feeds data to a fresh emulator and returns what it wrote
// back (its answers to queries). ok is false if the emulator panicked.
func emulatorReplies(data []byte) (replies []byte, ok bool) {
	t := newTerm(core.Size{Rows: 24, Cols: 80})
	p := startPump(t)
	err := t.write(data)
	return p.stop(), err == nil
}

// FuzzQueryScanner checks the scanner against the emulator it guards: any
// input the emulator answers must contain a query the scanner finds, and
// the count does not depend on how the stream is split into chunks.
func FuzzQueryScanner(f *testing.F) {
	for _, s := range []string{
		"\x1b[c", "\x1b[0c", "\x1b[>c", "\x1b[5n", "\x1b[6n", "\x1b[?6n", "\x1b[?1$p", "\x1b[4$p",
		"\x1b]10;?\x07", "\x1b]11;?\x1b\\", "\x1b]12;?\x9c", "\x1b[?2048h", "\x1b[?1;2048h",
		"plain text\r\nmore", "\x1b[2J\x1b[H", "\x1bP\xc2\x1b[c", "\xe2\x1b[c", "\x9b6n", "\x9d11;?\x07",
		"\x1b[?1049h\x1b[?1h\x1b=", "é\x1b[6n", "\x1b[1;2\x1b[6n",
	} {
		f.Add([]byte(s), uint8(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		var whole queryScanner
		n := whole.scan(data)
		k := int(cut)
		if k > len(data) {
			k = len(data)
		}
		var split queryScanner
		m := split.scan(data[:k]) + split.scan(data[k:])
		if n != m || whole != split {
			t.Fatalf("split at %d: %d queries (state %+v), whole: %d (state %+v)", k, m, split, n, whole)
		}
		var bytewise queryScanner
		b := 0
		for i := range data {
			b += bytewise.scan(data[i : i+1])
		}
		if b != n {
			t.Fatalf("byte by byte: %d queries, whole: %d", b, n)
		}
		var f1, f2, f3 queryScanner
		filtered := f1.filter(data, 0)
		splitF := append(append([]byte(nil), f2.filter(data[:k], 0)...), f2.filter(data[k:], 0)...)
		if string(filtered) != string(splitF) {
			t.Fatalf("filter depends on the split: %q vs %q", filtered, splitF)
		}
		if again := f3.filter(filtered, 0); string(again) != string(filtered) {
			t.Fatalf("filter is not idempotent: %q -> %q", filtered, again)
		}
		var fs queryScanner
		if fn := fs.scan(filtered); fn != n {
			t.Fatalf("filtering changed the query count from %d to %d", n, fn)
		}
		replies, ok := emulatorReplies(data)
		if ok && len(replies) > 0 && n == 0 {
			t.Fatalf("the emulator answered %q but the scanner found no query in %q", replies, data)
		}
	})
}
