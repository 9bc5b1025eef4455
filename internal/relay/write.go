package relay

import (
	"bytes"
	"context"
	"fmt"
)

type writeReq struct {
	p   []byte
	res chan writeRes
}

type writeRes struct {
	n   int
	err error
}

// writer writes the input Write hands it to the stream, one write at a
// time, until the input side ended or Closed is closed.
func (s *Stream) writer() {
	defer s.wg.Done()
	for {
		select {
		case r := <-s.writes:
			n, err := s.w.Write(r.p)
			r.res <- writeRes{n, err}
		case <-s.cfg.Closed:
			return
		case <-s.writeEnd:
			return
		}
	}
}

// Write hands p to the stream's writer and waits for the stream to take
// it. It returns when ctx is done even if the stream does not take the
// input (the far side does not read): then with 0 and ctx's error, and
// the bytes already handed to the stream are still sent; a later Write
// waits (bounded by its own ctx) until that write ends. A done ctx writes
// nothing.
//
// Its errors: ctx's error; Config.Gone's error when the input side ended
// (Config.WriteEnd) or the session closed (Config.Closed) before the
// write was handed over, or when the stream's write failed (once the
// session has learnt its end: see writeFailed); the stream's error,
// wrapped as "<Name> write: …" together with ctx's, only when ctx ended
// before the session learnt the end of a stream that failed the write.
func (s *Stream) Write(ctx context.Context, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	select { // an end already known wins over a writer still waiting
	case <-s.cfg.Closed:
		return 0, s.cfg.Gone()
	case <-s.writeEnd:
		return 0, s.cfg.Gone()
	default:
	}
	req := writeReq{p: bytes.Clone(p), res: make(chan writeRes, 1)}
	select {
	case s.writes <- req:
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-s.cfg.Closed:
		return 0, s.cfg.Gone()
	case <-s.writeEnd:
		return 0, s.cfg.Gone()
	}
	select {
	case r := <-req.res:
		if r.err != nil {
			return r.n, s.writeFailed(ctx, r.err)
		}
		return r.n, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// writeFailed is Write's error for a write the stream failed with err. A
// stream refuses input only once it has ended or broken (Config), and the
// stream knows that before its session does: an ssh channel refuses input
// as soon as the server's close arrives, before the session's request
// loop has taken the requests queued ahead of it; a socket refuses input
// the moment its far side is gone, while the pump is still to read the
// end. So a failed write waits, bounded by ctx, until the session has
// learnt its end (the input side's end, or Closed), and then says it
// with Gone's error, the cause of a loss included. A loss Config.Cause
// already reports needs no wait. When ctx ends first, the error matches
// both the stream's error and ctx's.
func (s *Stream) writeFailed(ctx context.Context, err error) error {
	if s.cfg.Cause != nil && s.cfg.Cause() != nil {
		return s.cfg.Gone() // the write raced the loss: say it was the loss
	}
	select {
	case <-s.writeEnd:
	case <-s.cfg.Closed:
	case <-ctx.Done():
		return fmt.Errorf("%s write: %w (the session had not learnt its end when the caller gave up: %w)", s.cfg.Name, err, ctx.Err())
	}
	return s.cfg.Gone()
}
