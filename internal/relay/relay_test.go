package relay

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// sizedReader returns data in reads of the sizes listed (cycling), as a
// transport hands out what its buffer holds; then io.EOF.
type sizedReader struct {
	data  []byte
	sizes []int
	i     int
}

func (r *sizedReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(r.sizes[r.i%len(r.sizes)], len(p), len(r.data))
	r.i++
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// chanReader returns each slice sent on c as one read; io.EOF once c is
// closed. Inside a synctest bubble a read on it blocks durably.
type chanReader struct{ c chan []byte }

func (r chanReader) Read(p []byte) (int, error) {
	b, ok := <-r.c
	if !ok {
		return 0, io.EOF
	}
	return copy(p, b), nil
}

// stallWriter takes nothing until release is closed, as a far side that
// does not read; then it records what it is given.
type stallWriter struct {
	release chan struct{}
	mu      sync.Mutex
	got     bytes.Buffer
}

func (w *stallWriter) Write(p []byte) (int, error) {
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.got.Write(p)
}

func (w *stallWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.got.String()
}

// errWriter fails every write with err.
type errWriter struct{ err error }

func (w errWriter) Write(p []byte) (int, error) { return 0, w.err }

// session is what a backend session keeps beside its Stream.
type session struct {
	exited, closed chan struct{}
	cause          error
	s              *Stream
}

var errGone = errors.New("the test session ended")

func newSession(writeEnd <-chan struct{}) *session {
	ss := &session{exited: make(chan struct{}), closed: make(chan struct{})}
	ss.s = New(Config{Name: "test", Exited: ss.exited, Closed: ss.closed, WriteEnd: writeEnd,
		Gone: func() error { return errGone }, Cause: func() error { return ss.cause }})
	return ss
}

// The output keeps every byte, in order, after what Prepend gave, whatever
// the sizes of the stream's reads and of the caller's buffer, with a
// second output side that has nothing to say.
func TestReadKeepsTheStream(t *testing.T) {
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i*7 + i/251)
	}
	for _, readSize := range []int{1, 1000, 4096, chunkSize, 3 * chunkSize} {
		ss := newSession(nil)
		ss.s.Prepend([]byte("banner\r\n"))
		ss.s.Start(io.Discard, &sizedReader{data: data, sizes: []int{1, 4095, chunkSize, 17, 9000}}, &sizedReader{})
		var got bytes.Buffer
		buf := make([]byte, readSize)
		for {
			n, err := ss.s.Read(buf)
			got.Write(buf[:n])
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Len() == len(data)+len("banner\r\n") {
				close(ss.exited) // the exit report; Read then says io.EOF
			}
		}
		close(ss.closed)
		ss.s.Wait()
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
// once per chunk (a copy of every read allocates once each). Under the
// race detector sync.Pool drops a quarter of what it is given, so about
// one chunk in four allocates there; without it, almost none.
func TestReadFloodReusesBuffers(t *testing.T) {
	const chunks = 4000
	data := make([]byte, chunks*4096)
	ss := newSession(nil)
	ss.s.Start(io.Discard, &sizedReader{data: data, sizes: []int{4096}}, &sizedReader{})
	buf := make([]byte, 8192)
	read := func(n int) {
		for n > 0 {
			k, err := ss.s.Read(buf[:min(len(buf), n)])
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
	close(ss.exited)
	if n, err := ss.s.Read(buf); n != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("after the flood: %d, %v; want io.EOF", n, err)
	}
	close(ss.closed)
	ss.s.Wait()
}

// The end of the output is io.EOF only once the exit is known: a reader
// that sees io.EOF finds the exit status set.
func TestReadEOFWaitsForExit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ss := newSession(nil)
		out := chanReader{make(chan []byte)}
		ss.s.Start(io.Discard, out)
		go func() { out.c <- []byte("bye\r\n"); close(out.c) }()
		buf := make([]byte, 64)
		if n, err := ss.s.Read(buf); err != nil || string(buf[:n]) != "bye\r\n" {
			t.Fatalf("Read: %q, %v", buf[:n], err)
		}
		type result struct {
			n   int
			err error
		}
		res := make(chan result, 1)
		go func() {
			n, err := ss.s.Read(buf)
			res <- result{n, err}
		}()
		synctest.Wait()
		select {
		case <-ss.s.OutputDone():
		default:
			t.Fatal("OutputDone is not closed after the stream's io.EOF")
		}
		select {
		case r := <-res:
			t.Fatalf("Read returned %d, %v before the exit was known", r.n, r.err)
		default:
		}
		close(ss.exited)
		if r := <-res; r.n != 0 || r.err != io.EOF {
			t.Fatalf("Read after the exit: %d, %v; want 0, io.EOF", r.n, r.err)
		}
		close(ss.closed)
		ss.s.Wait()
	})
}

// Closed stops a pump that holds output nobody reads (it drops it and
// returns) and ends Read once the output already buffered is read; a
// pump blocked in the stream's read returns once the session closes the
// stream.
func TestClosedEndsReadAndPumps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ss := newSession(nil)
		busy, quiet := chanReader{make(chan []byte)}, chanReader{make(chan []byte)}
		ss.s.Start(io.Discard, busy, quiet)
		for range cap(ss.s.out) + 1 { // the output is full, one more chunk in the pump's hand
			busy.c <- []byte("x")
		}
		synctest.Wait()
		close(ss.closed)
		synctest.Wait()
		if n := ss.s.readers.Load(); n != 1 {
			t.Fatalf("%d pumps run after Closed, want 1 (the one blocked in the stream's read)", n)
		}
		var err error
		for i := 0; err == nil; i++ {
			if i > cap(ss.s.out) {
				t.Fatalf("Read after Closed: %d reads without io.EOF", i)
			}
			_, err = ss.s.Read(make([]byte, 8))
		}
		if err != io.EOF {
			t.Fatalf("Read after Closed: %v, want io.EOF", err)
		}
		close(quiet.c) // the session closes the stream: the blocked read ends
		ss.s.Wait()
		select {
		case <-ss.s.OutputDone():
		default:
			t.Fatal("OutputDone is not closed after the pumps returned")
		}
	})
}

// A write into a stream that does not take it ends with its context, and
// so does a later write while the first is still in the stream's hands;
// once the far side reads, both the first write's bytes and the next
// write arrive.
func TestWriteStalledStreamCancels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ss := newSession(nil)
		out := chanReader{make(chan []byte)}
		w := &stallWriter{release: make(chan struct{})}
		ss.s.Start(w, out)

		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		var n int
		var err error
		go func() {
			defer close(done)
			n, err = ss.s.Write(ctx, []byte("first"))
		}()
		synctest.Wait() // the writer is in the stalled write
		cancel()
		<-done
		if n != 0 || !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled write into a stalled stream: %d, %v; want 0, context.Canceled", n, err)
		}

		ctx2, cancel2 := context.WithCancel(t.Context())
		cancel2Done := make(chan struct{})
		go func() {
			defer close(cancel2Done)
			n, err = ss.s.Write(ctx2, []byte("second"))
		}()
		synctest.Wait() // waiting to hand over: the writer is busy
		cancel2()
		<-cancel2Done
		if n != 0 || !errors.Is(err, context.Canceled) {
			t.Fatalf("write behind a stalled one: %d, %v; want 0, context.Canceled", n, err)
		}

		close(w.release) // the far side reads
		if n, err := ss.s.Write(t.Context(), []byte("third")); n != 5 || err != nil {
			t.Fatalf("write after the stall: %d, %v; want 5, nil", n, err)
		}
		if got := w.String(); got != "firstthird" {
			t.Fatalf("the stream got %q, want the first write's bytes, then the third's", got)
		}

		if n, err := ss.s.Write(ctx, []byte("late")); n != 0 || !errors.Is(err, context.Canceled) {
			t.Fatalf("write with a done context: %d, %v; want 0, context.Canceled", n, err)
		}
		if got := w.String(); strings.Contains(got, "late") {
			t.Fatalf("a write with a done context reached the stream: %q", got)
		}
		close(ss.closed)
		close(out.c)
		ss.s.Wait()
	})
}

// Write's errors: Gone's once the input side ended or the session closed,
// and for a failed write that raced a loss (see also
// TestWriteFailedWaitsForTheEnd).
func TestWriteErrors(t *testing.T) {
	boom := errors.New("broken pipe")
	tests := []struct {
		name    string
		w       io.Writer
		ownEnd  bool // the transport passes its own WriteEnd, still open
		endOut  bool // the output has ended
		closed  bool
		lost    bool
		wantN   int
		wantErr error
	}{
		{name: "written", w: io.Discard, wantN: 2},
		{name: "output ended, input ends with it", w: io.Discard, endOut: true, wantErr: errGone},
		{name: "output ended, input goes on (half-close)", w: io.Discard, ownEnd: true, endOut: true, wantN: 2},
		{name: "session closed", w: io.Discard, closed: true, wantErr: errGone},
		{name: "stream failed in a loss", w: errWriter{boom}, lost: true, wantErr: errGone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var writeEnd chan struct{}
				if tc.ownEnd {
					writeEnd = make(chan struct{})
				}
				ss := newSession(writeEnd)
				out := chanReader{make(chan []byte)}
				ss.s.Start(tc.w, out)
				if tc.endOut {
					close(out.c)
					<-ss.s.OutputDone()
					synctest.Wait() // the writer saw it
				}
				if tc.closed {
					close(ss.closed)
					synctest.Wait()
				}
				if tc.lost {
					ss.cause = errors.New("connection lost")
				}
				n, err := ss.s.Write(t.Context(), []byte("hi"))
				if n != tc.wantN || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
					t.Fatalf("Write: %d, %v; want %d, %v", n, err, tc.wantN, tc.wantErr)
				}
				if !tc.closed {
					close(ss.closed)
				}
				if !tc.endOut {
					close(out.c)
				}
				ss.s.Wait()
			})
		})
	}
}

// Without Gone, a write on an ended stream is ErrEnded; an empty write
// is nothing at all.
func TestWriteDefaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		closed := make(chan struct{})
		s := New(Config{Name: "test", Exited: make(chan struct{}), Closed: closed})
		s.Start(io.Discard)
		if n, err := s.Write(t.Context(), nil); n != 0 || err != nil {
			t.Fatalf("empty write: %d, %v", n, err)
		}
		<-s.OutputDone() // no output side: the output has ended, and the input with it
		synctest.Wait()
		if _, err := s.Write(t.Context(), []byte("x")); !errors.Is(err, ErrEnded) {
			t.Fatalf("write on an ended stream: %v, want ErrEnded", err)
		}
		close(closed)
		s.Wait()
	})
}

// A write the stream failed before the session learnt its end (an ssh
// channel refuses input as soon as the server's close arrives, before the
// session has taken the exit report queued ahead of it) waits for the
// session to learn it, then is Gone's error, never the stream's: the
// input side's end, or Close. When the caller gives up first, the error
// matches both the stream's error and the context's.
func TestWriteFailedWaitsForTheEnd(t *testing.T) {
	boom := errors.New("EOF")
	for _, end := range []string{"input side ended", "session closed", "caller gave up"} {
		t.Run(end, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				writeEnd := make(chan struct{})
				ss := newSession(writeEnd)
				out := chanReader{make(chan []byte)}
				ss.s.Start(errWriter{boom}, out)
				ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
				defer cancel()
				type result struct {
					n   int
					err error
				}
				res := make(chan result, 1)
				go func() {
					n, err := ss.s.Write(ctx, []byte("hi"))
					res <- result{n, err}
				}()
				synctest.Wait()
				select {
				case r := <-res:
					t.Fatalf("Write returned %d, %v before the session learnt its end", r.n, r.err)
				default:
				}
				switch end {
				case "input side ended":
					close(writeEnd)
				case "session closed":
					close(ss.closed)
				}
				r := <-res // the caller's case: the minute passes in the bubble
				if end == "caller gave up" {
					if !errors.Is(r.err, boom) || !errors.Is(r.err, context.DeadlineExceeded) || !strings.HasPrefix(r.err.Error(), "test write: EOF") {
						t.Fatalf("Write: %v; want the stream's error, named, and the context's", r.err)
					}
				} else if r.n != 0 || r.err != errGone {
					t.Fatalf("Write: %d, %v; want 0, Gone's error", r.n, r.err)
				}
				select {
				case <-ss.closed:
				default:
					close(ss.closed)
				}
				close(out.c)
				ss.s.Wait()
			})
		})
	}
}
