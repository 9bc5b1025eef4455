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

// BenchmarkRecordLines is BenchmarkRecordOutput on BenchmarkIngest's
// text lines (80 characters and CR LF), in the batches a busy session
// hands the recorder (256 KiB), into a file emptied every 16 MiB: the
// recorder's CPU per byte of that benchmark's recorded session.
func BenchmarkRecordLines(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "x.cast"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	x := &rec{f: f, w: f, start: time.Now(), max: 1 << 62}
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	chunk := bytes.Repeat(line, 256<<10/len(line))
	b.SetBytes(int64(len(chunk)))
	b.ResetTimer()
	for i := range b.N {
		x.output(chunk, time.Now())
		if i%64 == 63 {
			// A new file every 16 MiB, as a recorded session writes
			// (the page cache's new pages are part of the cost), and
			// no disk filling up.
			x.flush()
			if err := f.Truncate(0); err != nil {
				b.Fatal(err)
			}
			if _, err := f.Seek(0, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
	x.flush()
}
