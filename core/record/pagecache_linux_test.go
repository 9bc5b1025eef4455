package record

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A busy recording keeps at most a few rounds of its file in the page
// cache (the rest was written back and dropped), and its file, read while
// it is written (as a player of the live file does), is the recording so
// far: a dropped page is read back from the disk as it was written.
func TestRecordingDropsWrittenPagesAndStaysReadable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.cast")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x := &rec{f: f, w: f, start: time.Now(), max: 1 << 40}
	x.line([]byte(`{"version": 2, "width": 80, "height": 24}`))
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	chunk := bytes.Repeat(line, 256<<10/len(line))
	var fs unix.Statfs_t
	var want bytes.Buffer
	record := func(rounds int64) {
		for x.written < rounds*pageRound {
			x.output(chunk, time.Now())
			x.write()
			want.Write(chunk)
		}
	}
	record(6)
	if err := unix.Statfs(dir, &fs); err != nil {
		t.Fatal(err)
	}
	if fs.Type == unix.TMPFS_MAGIC {
		t.Logf("%s is on tmpfs: its pages are the file's storage, none to drop", dir)
	} else {
		resident := residentBytes(t, f, x.written)
		t.Logf("%d of %d bytes of the file in the page cache", resident, x.written)
		if resident > 3*pageRound {
			t.Fatalf("%d bytes of the file are in the page cache, want at most %d (the last rounds)", resident, 3*pageRound)
		}
	}

	// A reader of the live file, once a round.
	type snapshot struct {
		n   int
		sum [sha256.Size]byte
	}
	var live []snapshot
	for rounds := int64(7); rounds <= 10; rounds++ {
		record(rounds)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(b)) != x.written {
			t.Fatalf("the live file holds %d bytes, %d were written", len(b), x.written)
		}
		live = append(live, snapshot{len(b), sha256.Sum256(b)})
	}
	x.flush()
	if x.err != nil {
		t.Fatal(x.err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range live {
		if sha256.Sum256(raw[:s.n]) != s.sum {
			t.Fatalf("a reader of the live file saw %d bytes that are not the recording's first %d", s.n, s.n)
		}
	}
	r, err := NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString(ev.Data)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("the recording holds %d bytes of output, %d were recorded", got.Len(), want.Len())
	}

}

// residentBytes returns how much of the first size bytes of f the page
// cache holds (mincore of a mapping of the file).
func residentBytes(t *testing.T, f *os.File, size int64) int64 {
	t.Helper()
	r, err := os.Open(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m, err := unix.Mmap(int(r.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.Munmap(m) }()
	page := os.Getpagesize()
	vec := make([]byte, (len(m)+page-1)/page)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	var n int64
	for _, v := range vec {
		if v&1 != 0 {
			n += int64(page)
		}
	}
	return n
}
