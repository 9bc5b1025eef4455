package gdbmi

import (
	"bytes"
	"errors"
	"io"
)

// Line is one line of output split off by a [Framer] or a [Reader].
type Line struct {
	// Num is the 1-based line number within the stream (empty lines are
	// counted but not returned).
	Num int64
	// Text is the line without its line end.
	Text string
	// Record is the parsed record when Err is nil.
	Record Record
	// Err is a [*SyntaxError] (with Line set) when the line is not valid MI
	// output: for example a command echoed by a terminal, or text another
	// program wrote to gdb's terminal.
	Err error
}

// Framer splits a raw byte stream, fed in chunks of any size, into lines
// ending in LF, CR-LF or a lone CR, and parses each. A line may be of any
// length. A Framer is not safe for concurrent use; the zero Framer is
// ready.
type Framer struct {
	partial []byte
	skipLF  bool
	num     int64
	p       parser
}

// Feed consumes chunk and appends a [Line] for every line it completes to
// dst, returning the extended slice. A line that is not yet ended is kept
// until a later Feed or [Framer.Flush] completes it. A CR ends a line at
// once (the prompt is seen without waiting for the next byte); an LF right
// after it, even in the next chunk, is skipped.
func (f *Framer) Feed(dst []Line, chunk []byte) []Line {
	if f.skipLF && len(chunk) > 0 {
		if chunk[0] == '\n' {
			chunk = chunk[1:]
		}
		f.skipLF = false
	}
	for len(chunk) > 0 {
		n := bytes.IndexByte(chunk, '\n')
		seg := chunk
		if n >= 0 {
			seg = chunk[:n]
		}
		var end, used int
		if r := bytes.IndexByte(seg, '\r'); r >= 0 {
			end, used = r, r+1
			switch {
			case r+1 < len(chunk) && chunk[r+1] == '\n':
				used++
			case r+1 == len(chunk):
				f.skipLF = true
			}
		} else if n >= 0 {
			end, used = n, n+1
		} else {
			f.partial = append(f.partial, chunk...)
			return dst
		}
		line := chunk[:end]
		if len(f.partial) > 0 {
			f.partial = append(f.partial, line...)
			line = f.partial
		}
		dst = f.emit(dst, line)
		f.partial = f.partial[:0]
		chunk = chunk[used:]
	}
	return dst
}

// Flush completes a final line that has no line end (at end of stream)
// and appends it to dst.
func (f *Framer) Flush(dst []Line) []Line {
	if len(f.partial) > 0 {
		dst = f.emit(dst, f.partial)
		f.partial = f.partial[:0]
	}
	f.skipLF = false
	return dst
}

func (f *Framer) emit(dst []Line, line []byte) []Line {
	f.num++
	if len(line) == 0 {
		return dst
	}
	text := string(line)
	rec, err := f.p.parse(text)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			se.Line = f.num
		}
		return append(dst, Line{Num: f.num, Text: text, Err: err})
	}
	return append(dst, Line{Num: f.num, Text: text, Record: rec})
}

// Reader reads MI lines from an [io.Reader].
type Reader struct {
	r       io.Reader
	f       Framer
	buf     []byte
	pending []Line
	head    int
	err     error
}

// NewReader returns a Reader that reads from r in chunks of 64 KiB (lines
// may be longer).
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, buf: make([]byte, 64<<10)}
}

// Next returns the next non-empty line. A line that is not valid MI comes
// back with its Err set and a nil error: the stream goes on. At the end of
// input Next returns the final unterminated line, if any, and then io.EOF;
// a read error is returned as it is.
func (r *Reader) Next() (Line, error) {
	for {
		if r.head < len(r.pending) {
			l := r.pending[r.head]
			r.pending[r.head] = Line{}
			r.head++
			return l, nil
		}
		r.pending, r.head = r.pending[:0], 0
		if r.err != nil {
			return Line{}, r.err
		}
		n, err := r.r.Read(r.buf)
		r.pending = r.f.Feed(r.pending, r.buf[:n])
		if err != nil {
			r.pending = r.f.Flush(r.pending)
			r.err = err
		}
	}
}
