package record

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// BenchmarkRecordOutput measures the recorder's own work per byte of
// output (splitting at event offsets, UTF-8 carry, JSON, the buffered
// file write) in 32 KiB chunks, the size of one read of the terminal, with
// a settled-send marker every 64 chunks: the CPU a recording adds to a
// session's ingest.
func BenchmarkRecordOutput(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "x.cast"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	x := &rec{f: f, w: f, start: time.Now(), max: 1 << 62}
	chunk := bytes.Repeat([]byte("0123456789abcdef \x1b[1;31mred\x1b[0m é\r\n"), 32<<10/40)
	b.SetBytes(int64(len(chunk)))
	b.ResetTimer()
	for i := range b.N {
		if i%64 == 0 {
			x.mu.Lock()
			x.pending = append(x.pending, core.Event{Kind: core.EventSettled, Offset: x.pos + 100, WaitReason: core.WaitPrompt, Time: time.Now()})
			x.mu.Unlock()
		}
		x.output(chunk, time.Now())
	}
	x.flush()
}
