package scrollback

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// writeTargetMBps is the ingest speed the service needs: well above what
// a PTY delivers on this class of machine (60-90 MB/s).
const writeTargetMBps = 500

// BenchmarkWrite cleans and stores 80-byte "\r\n" lines written in 32 KiB
// chunks, as a PTY reader delivers them. x-target is MB/s over the target.
func BenchmarkWrite(b *testing.B) {
	line := strings.Repeat("0123456789abcdefghij", 4)[:78] + "\r\n"
	chunk := []byte(strings.Repeat(line, (32<<10)/len(line)))
	buf := New(Limits{})
	b.SetBytes(int64(len(chunk)))
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		buf.Write(chunk)
	}
	mbps := float64(len(chunk)) * float64(b.N) / time.Since(start).Seconds() / 1e6
	b.ReportMetric(mbps/writeTargetMBps, "x-target")
}

// BenchmarkWriteNoisy is the same volume with colours on every line.
func BenchmarkWriteNoisy(b *testing.B) {
	line := "\x1b[32m" + strings.Repeat("0123456789", 7) + "\x1b[0m\r\n"
	chunk := []byte(strings.Repeat(line, (32<<10)/len(line)))
	buf := New(Limits{})
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		buf.Write(chunk)
	}
}

// pageBuffer fills a buffer that retains n lines.
func pageBuffer(n int) *Buffer {
	buf := New(Limits{MaxLines: n, MaxBytes: 64 * n, MaxLineBytes: 64})
	var sb strings.Builder
	for i := 0; i < n+100; i++ {
		fmt.Fprintf(&sb, "line %d of the page benchmark\r\n", i)
		if sb.Len() > 32<<10 {
			buf.Write([]byte(sb.String()))
			sb.Reset()
		}
	}
	buf.Write([]byte(sb.String()))
	return buf
}

// BenchmarkPage reads a 100-line page from the middle of 1,000 and of
// 1,000,000 retained lines; paging must not depend on the retained count.
// ratio is the big buffer's time per page over the small one's (1 is the
// goal).
func BenchmarkPage(b *testing.B) {
	small, big := pageBuffer(1_000), pageBuffer(1_000_000)
	req := func(buf *Buffer) PageRequest {
		return PageRequest{Start: buf.Total() - buf.Total()/2, Count: 100}
	}
	var tSmall, tBig time.Duration
	for b.Loop() {
		t0 := time.Now()
		small.Page(req(small), 0)
		t1 := time.Now()
		big.Page(req(big), 0)
		tBig += time.Since(t1)
		tSmall += t1.Sub(t0)
	}
	b.ReportMetric(float64(tBig)/float64(tSmall), "ratio")
	b.ReportMetric(float64(tSmall.Nanoseconds())/float64(b.N), "ns/page-1k")
	b.ReportMetric(float64(tBig.Nanoseconds())/float64(b.N), "ns/page-1M")
}

// BenchmarkCursorNext reads 20 new lines and a prompt per step with a
// read of 10,000 lines (as the service asks), 10,000 lines retained.
func BenchmarkCursorNext(b *testing.B) {
	buf := New(Limits{})
	buf.Write([]byte(strings.Repeat("retained history line\r\n", 10_000)))
	read := func(r PageRequest) (Page, error) { return buf.Page(r, 0), nil }
	c := buf.End()
	step := []byte(strings.Repeat("some output line of moderate length\r\n", 20) + "$ ")
	b.SetBytes(int64(len(step)))
	for b.Loop() {
		buf.Write(step)
		if _, err := c.Next(read, 10_000, 256<<10); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCursorSince is BenchmarkCursorNext through Buffer.Since, as the
// service reads: with 10,000 retained lines it reads only what is new.
func BenchmarkCursorSince(b *testing.B) {
	buf := New(Limits{})
	buf.Write([]byte(strings.Repeat("retained history line\r\n", 10_000)))
	c := buf.End()
	step := []byte(strings.Repeat("some output line of moderate length\r\n", 20) + "$ ")
	b.SetBytes(int64(len(step)))
	for b.Loop() {
		buf.Write(step)
		buf.Since(&c, 10_000, 256<<10)
	}
}
