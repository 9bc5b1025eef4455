package ssh

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
)

// chunkReader returns data in reads of the sizes listed (cycling), as a
// channel hands out what its buffer holds; then io.EOF.
type chunkReader struct {
	data  []byte
	sizes []int
	i     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(r.sizes[r.i%len(r.sizes)], len(p), len(r.data))
	r.i++
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// pumpOnly is a session with only what its pumps and Read use, fed by
// the given stdout and stderr readers.
func pumpOnly(stdout, stderr io.Reader, banner []byte) *session {
	s := &session{pending: banner, out: make(chan chunk, 8), exited: make(chan struct{}), closed: make(chan struct{})}
	s.pumps.Store(2)
	s.wg.Add(2)
	go s.pump(stdout)
	go s.pump(stderr)
	return s
}

// The pooled chunks keep every byte, in order, whatever the sizes of the
// channel's reads and of the caller's buffer, after a pending banner.
func TestReadPooledChunksKeepTheStream(t *testing.T) {
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i*7 + i/251)
	}
	for _, readSize := range []int{1, 1000, 4096, chunkSize, 3 * chunkSize} {
		s := pumpOnly(&chunkReader{data: data, sizes: []int{1, 4095, chunkSize, 17, 9000}},
			&chunkReader{}, []byte("banner\r\n"))
		var got bytes.Buffer
		buf := make([]byte, readSize)
		for {
			n, err := s.Read(buf)
			got.Write(buf[:n])
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Len() == len(data)+len("banner\r\n") {
				close(s.exited) // the exit report; Read then says io.EOF
			}
		}
		s.wg.Wait()
		want := append([]byte("banner\r\n"), data...)
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("reads of %d: got %d bytes, want %d, equal prefix %d", readSize, got.Len(), len(want), commonPrefix(got.Bytes(), want))
		}
	}
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// A flood reuses the pumps' buffers: reading it allocates far less than
// once per chunk (a copy of every read, before, allocated once each).
// Under the race detector sync.Pool drops a quarter of what it is given,
// so about one chunk in four allocates there; without it, almost none.
func TestReadFloodReusesBuffers(t *testing.T) {
	const chunks = 4000
	data := make([]byte, chunks*4096)
	s := pumpOnly(&chunkReader{data: data, sizes: []int{4096}}, &chunkReader{}, nil)
	buf := make([]byte, 8192)
	read := func(n int) {
		for n > 0 {
			k, err := s.Read(buf[:min(len(buf), n)])
			if err != nil {
				t.Fatal(err)
			}
			n -= k
		}
	}
	read(100 * 4096) // warm the pool
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	read((chunks - 200) * 4096)
	runtime.ReadMemStats(&after)
	allocs := after.Mallocs - before.Mallocs
	t.Logf("%d allocations for %d chunks", allocs, chunks-200)
	if allocs > chunks/2 {
		t.Fatalf("%d allocations reading %d chunks of a flood, want far fewer than one per chunk", allocs, chunks-200)
	}
	read(100 * 4096)
	close(s.exited)
	if n, err := s.Read(buf); n != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("after the flood: %d, %v; want io.EOF", n, err)
	}
	s.wg.Wait()
}
