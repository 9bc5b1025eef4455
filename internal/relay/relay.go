// Package relay carries a backend session's remote byte stream (an ssh
// session channel, a container's attach connection): pumps read the
// stream's output sides into one ordered output that the session's Read
// returns, and one writer hands input to the stream so that a write into
// a stream that does not take it still ends with its context. It is the
// one home of that mechanism for the ssh and docker backends; what the
// stream is, how the session learns its exit and how Close ends the
// stream stay with each backend.
package relay

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

// ErrEnded is the error of a write on an ended stream when Config.Gone is
// nil.
var ErrEnded = errors.New("the stream has ended")

// Config is what a Stream needs from its session. The stream's writer
// fails only once the stream has ended or broken (an ssh channel closed
// by either side or with its connection, a socket whose far side is
// gone), and the session then learns its end: WriteEnd (or, without one,
// the output's end) or Closed is closed. A write the stream failed waits
// for that, bounded by the write's context, and is Gone's error.
type Config struct {
	// Name names the transport in errors: a write the stream failed and
	// whose context ended before the session learnt its end is
	// "<Name> write: <the stream's error> (…)".
	Name string
	// Exited is closed when the session's exit is known. Read reports
	// io.EOF once the output ended and Exited (or Closed) is closed, so
	// that a reader that sees io.EOF finds the exit status set.
	Exited <-chan struct{}
	// Closed is closed when the session's Close has closed the stream: the
	// pumps drop what they hold and return, Read returns io.EOF and Write
	// returns Gone's error.
	Closed <-chan struct{}
	// WriteEnd, when closed, ends the input side: the writer returns and
	// Write returns Gone's error. Nil means the input ends with the output,
	// right for a stream whose read side ends only when its far side is
	// gone (a container's attach connection). A transport that can close
	// its output and go on reading (an ssh channel: the server's EOF is a
	// half-close) passes the end of the whole stream.
	WriteEnd <-chan struct{}
	// Gone returns the error of a write on an ended session (a
	// core.CodeSessionExited error, say); nil means ErrEnded.
	Gone func() error
	// Cause reports why the session ended when that was a loss (its
	// core.Prober.ExitCause answer). A stream write that fails while Cause is
	// not nil raced the loss, and Write says so with Gone's error at
	// once. Nil means no loss is ever known.
	Cause func() error
}

// Stream is the relay of one session's remote stream: New, then Prepend
// (optional) and Start once; Read from one goroutine (the session's read
// loop), Write from any.
type Stream struct {
	cfg Config

	out      chan chunk    // output chunks from the pumps
	readers  atomic.Int32  // pumps still reading
	outDone  chan struct{} // every pump has ended; out is closed
	writeEnd <-chan struct{}

	w      io.Writer
	writes chan writeReq

	wg sync.WaitGroup

	pending    []byte           // output not yet returned; only Read touches it after Start
	pendingBuf *[chunkSize]byte // the pooled buffer pending is in, returned once pending is empty
}

// New returns a Stream for the session cfg describes; Start starts it.
func New(cfg Config) *Stream {
	if cfg.Gone == nil {
		cfg.Gone = func() error { return ErrEnded }
	}
	s := &Stream{
		cfg:     cfg,
		out:     make(chan chunk, 8),
		outDone: make(chan struct{}),
		writes:  make(chan writeReq),
	}
	s.writeEnd = cfg.WriteEnd
	if s.writeEnd == nil {
		s.writeEnd = s.outDone
	}
	return s
}

// Prepend makes Read return p before the stream's output (an ssh
// server's banner). It is called before Start.
func (s *Stream) Prepend(p []byte) { s.pending = p }

// Start starts one pump per output side of the stream (readers: standard
// output, and standard error where the transport keeps it apart; their
// output is merged in the order it is read) and the writer, which writes
// input to w. It is called once; Wait waits for what it started.
func (s *Stream) Start(w io.Writer, readers ...io.Reader) {
	s.w = w
	s.readers.Store(int32(len(readers)))
	if len(readers) == 0 {
		s.endOutput()
	}
	s.wg.Add(len(readers) + 1)
	for _, r := range readers {
		go s.pump(r)
	}
	go s.writer()
}

// OutputDone is closed when every output side of the stream ended (its
// reader returned an error, io.EOF included) or Closed stopped the pumps.
func (s *Stream) OutputDone() <-chan struct{} { return s.outDone }

// Wait waits until the pumps and the writer have returned: after Closed is
// closed and the stream itself is closed (so that a blocked read or write
// on it returns).
func (s *Stream) Wait() { s.wg.Wait() }

// pump reads one output side of the stream into pooled chunks until it
// ends or Closed is closed.
func (s *Stream) pump(r io.Reader) {
	defer s.wg.Done()
	defer func() {
		if s.readers.Add(-1) == 0 {
			s.endOutput()
		}
	}()
	var buf *[chunkSize]byte
	defer func() { putChunkBuf(buf) }()
	for {
		if buf == nil {
			buf = getChunkBuf()
		}
		n, err := r.Read(buf[:])
		if n > 0 {
			select {
			case s.out <- chunk{buf: buf, data: buf[:n]}:
				buf = nil // Read returns it to the pool
			case <-s.cfg.Closed:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// endOutput closes the output once the last pump ended.
func (s *Stream) endOutput() {
	close(s.out)
	close(s.outDone)
}
