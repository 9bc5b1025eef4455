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
// write was handed over, or when the stream's write failed while
// Config.Cause reports a loss; otherwise the stream's error, wrapped as
// "<Name> write: …".
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
			if s.cfg.Cause != nil && s.cfg.Cause() != nil {
				// The write raced the loss: say it was the loss.
				return r.n, s.cfg.Gone()
			}
			return r.n, fmt.Errorf("%s write: %w", s.cfg.Name, r.err)
		}
		return r.n, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}
