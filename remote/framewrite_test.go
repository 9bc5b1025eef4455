package remote

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// writeLog records each write to it.
type writeLog struct {
	writes [][]byte
}

func (w *writeLog) Read([]byte) (int, error) { return 0, io.EOF }
func (w *writeLog) Close() error             { return nil }
func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, bytes.Clone(p))
	return len(p), nil
}

func frameHeader(typ uint8, length uint32) []byte {
	h := make([]byte, frameHeaderSize)
	h[1] = typ
	binary.BigEndian.PutUint32(h[4:], 3) // stream id
	binary.BigEndian.PutUint32(h[8:], length)
	return h
}

func TestFrameConnJoinsDataHeaderAndBody(t *testing.T) {
	var log writeLog
	c := newFrameConn(&log)
	body := []byte("hello")
	steps := [][]byte{
		frameHeader(frameTypeData, uint32(len(body))), body, // one write
		frameHeader(1, 1<<18),         // window update: at once
		frameHeader(frameTypeData, 0), // data frame without body (a FIN): at once
		frameHeader(2, 7),             // ping: at once
		frameHeader(frameTypeData, 3), []byte("abc"),
	}
	for _, p := range steps {
		if n, err := c.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", len(p), n, err)
		}
	}
	want := [][]byte{
		append(frameHeader(frameTypeData, 5), body...),
		frameHeader(1, 1<<18),
		frameHeader(frameTypeData, 0),
		frameHeader(2, 7),
		append(frameHeader(frameTypeData, 3), "abc"...),
	}
	if len(log.writes) != len(want) {
		t.Fatalf("%d writes, want %d: %q", len(log.writes), len(want), log.writes)
	}
	for i := range want {
		if !bytes.Equal(log.writes[i], want[i]) {
			t.Fatalf("write %d = %q, want %q", i, log.writes[i], want[i])
		}
	}
}

// shortWriter takes at most n bytes of each write.
type shortWriter struct {
	writeLog
	n int
}

func (w *shortWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		w.writeLog.Write(p[:w.n])
		return w.n, io.ErrShortWrite
	}
	return w.writeLog.Write(p)
}

func TestFrameConnShortWriteCountsBodyBytes(t *testing.T) {
	for _, tc := range []struct{ took, want int }{{4, 0}, {frameHeaderSize + 2, 2}} {
		c := newFrameConn(&shortWriter{n: tc.took})
		_, _ = c.Write(frameHeader(frameTypeData, 5))
		if n, err := c.Write([]byte("hello")); n != tc.want || err == nil {
			t.Fatalf("underlying write took %d bytes: Write = %d, %v; want %d and an error", tc.took, n, err, tc.want)
		}
	}
}

// Whatever the writes, the bytes reach the connection unchanged and in
// order; only a data header whose body has not come yet is held.
func FuzzFrameConn(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 'h', 'i'}, []byte{12, 2})
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0}, []byte{12})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var log writeLog
		c := newFrameConn(&log)
		rest := data
		for _, n := range cuts {
			if len(rest) == 0 {
				break
			}
			k := min(int(n), len(rest))
			if _, err := c.Write(rest[:k]); err != nil {
				t.Fatal(err)
			}
			rest = rest[k:]
		}
		if len(rest) > 0 {
			_, _ = c.Write(rest)
		}
		got := bytes.Join(log.writes, nil)
		if c.held {
			got = append(got, c.hdr[:]...)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("wrote %q, want %q", got, data)
		}
	})
}
