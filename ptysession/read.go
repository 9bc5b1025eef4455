package ptysession

import (
	"context"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/runecut"
)

// ReadRequest selects a page of scrollback by absolute line numbers (line
// 0 is the first line the session printed): see [core.PageRequest]. Through
// the facade, Count 0 takes Options.TailLines; at most 10,000.
type ReadRequest = core.PageRequest

// ReadResult is one bounded page of scrollback, as text. It does not move
// the tail cursor. Its span (see [core.PageSpan]) says where it lies: page
// on from End.
type ReadResult struct {
	// Text holds the page's lines, each completed line ending in "\n".
	Text string `json:"text"`
	// Lines counts the lines in Text.
	Lines int `json:"lines"`
	core.PageSpan
}

// Read returns a page of the session's retained scrollback, independent of
// the tail cursor. Lines outside 0..10,000 or a negative Start is
// INVALID_ARGUMENT.
func (s *Sessions) Read(ctx context.Context, owner *core.Owner, id core.SessionID, req ReadRequest) (ReadResult, error) {
	const op = "read"
	if err := checkCall(ctx, op, owner, id); err != nil {
		return ReadResult{}, err
	}
	switch {
	case req.Count < 0 || req.Count > MaxLines:
		return ReadResult{}, invalid(op, id, "lines", "must be between 0 and %d, got %d", MaxLines, req.Count)
	case req.Start < 0:
		return ReadResult{}, invalid(op, id, "start", "must not be negative, got %d", req.Start)
	}
	if req.Count == 0 {
		req.Count = s.opts.TailLines
	}
	pg, err := s.t.Read(owner, id, req)
	if err != nil {
		return ReadResult{}, err
	}
	n := min(len(pg.Lines), int(max(pg.End-pg.Start, 0)))
	res := ReadResult{PageSpan: pg.PageSpan}
	res.End, res.Partial = pg.Start+int64(n), pg.Partial && pg.Start+int64(n) == pg.End
	var b strings.Builder
	for i, line := range pg.Lines[:n] {
		last := i == n-1
		size := len(line) + 1
		if b.Len()+size > s.opts.MaxResultBytes && i > 0 {
			res.End, res.Partial, res.Truncated = pg.Start+int64(i), false, true
			break
		}
		if size > s.opts.MaxResultBytes { // the first line alone: its end
			tail := runecut.Tail(line, s.opts.MaxResultBytes-1)
			res.Truncated, res.LineCut = true, res.LineCut+int64(len(line)-len(tail))
			line = tail
		}
		b.WriteString(line)
		if !(last && res.Partial) {
			b.WriteByte('\n')
		}
		res.Lines++
	}
	res.Text = b.String()
	return res, nil
}
