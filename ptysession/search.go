package ptysession

import (
	"context"
	"regexp"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/runecut"
)

// Bounds of a [SearchRequest].
const (
	// MaxSearchPattern bounds a search's regular expression.
	MaxSearchPattern = MaxWaitPattern
	// DefaultSearchLimit and MaxSearchLimit bound the matches of one search.
	DefaultSearchLimit = 50
	MaxSearchLimit     = 1000
	// MaxSearchScan bounds the lines one search examines; a search that
	// reaches it stops with More set, and Next says where to go on.
	MaxSearchScan = 100_000
	// maxMatchBytes bounds one matching line in a result.
	maxMatchBytes = 1024
)

// SearchRequest is a regular-expression search over a session's (or,
// through a [WaitSource], a job's) retained output.
type SearchRequest struct {
	// Pattern is the regular expression a line must match (Go RE2
	// syntax: no backreferences, linear time), 1 to MaxSearchPattern
	// bytes.
	Pattern string
	// IgnoreCase matches case-insensitively.
	IgnoreCase bool
	// From is the first global line number examined (0: the oldest line
	// still retained); pass a previous result's Next to page on.
	From int64
	// Limit is the most matches returned (0: DefaultSearchLimit; at most
	// MaxSearchLimit).
	Limit int
}

// SearchMatch is one matching line.
type SearchMatch struct {
	// Line is the line's global number (pty_read pages around it).
	Line int64 `json:"line"`
	// Text is the line, its end cut beyond 1 KiB.
	Text string `json:"text"`
}

// SearchResult is one page of matches, oldest first.
type SearchResult struct {
	// Matches are the matching lines found.
	Matches []SearchMatch `json:"matches"`
	// Next is the line to search from next (From of the next call): the
	// line after the last one examined, or the unfinished last line,
	// which is examined again as it may still grow.
	Next int64 `json:"next"`
	// More reports that lines from Next on were not examined yet (the
	// limit, the byte bound or the scan bound stopped the search).
	More bool `json:"more"`
	// Total counts every line so far; First is the oldest retained one.
	Total int64 `json:"total"`
	First int64 `json:"first"`
	// Dropped counts lines from From on that were no longer retained.
	Dropped int64 `json:"dropped,omitempty"`
}

// Search returns the lines of target's retained output from req.From on
// that match req.Pattern, at most req.Limit of them and
// Options.MaxResultBytes bytes of text, with their global line numbers.
// target is one of owner's sessions or an id one of sources knows (its
// jobs), as for [Sessions.Wait]. It moves no tail position and works on
// exited sessions until they are closed. Bad input is INVALID_ARGUMENT
// naming the field.
func (s *Sessions) Search(ctx context.Context, owner *core.Owner, target string, req SearchRequest, sources ...WaitSource) (SearchResult, error) {
	const op = "search"
	id := core.SessionID(target)
	if len(sources) > 0 && core.IsJobID(target) {
		// A source may know it (checkCall refuses job ids).
		if err := checkCall(ctx, op, owner, "pty_"); err != nil {
			return SearchResult{}, err
		}
	} else if err := checkCall(ctx, op, owner, id); err != nil {
		return SearchResult{}, err
	}
	switch {
	case req.Pattern == "" || len(req.Pattern) > MaxSearchPattern:
		return SearchResult{}, invalid(op, id, "pattern", "must be 1 to %d bytes", MaxSearchPattern)
	case req.From < 0:
		return SearchResult{}, invalid(op, id, "from", "must not be negative, got %d", req.From)
	case req.Limit < 0 || req.Limit > MaxSearchLimit:
		return SearchResult{}, invalid(op, id, "limit", "must be between 0 and %d, got %d", MaxSearchLimit, req.Limit)
	}
	limit := req.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	p := req.Pattern
	if req.IgnoreCase {
		p = "(?i)" + p
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return SearchResult{}, invalid(op, id, "pattern", "%v", err)
	}
	w, err := s.watchTarget(owner, target, sources)
	if err != nil {
		return SearchResult{}, core.WithOp(err, op)
	}
	res := SearchResult{Matches: []SearchMatch{}, Next: req.From}
	size, scanned := 0, 0
	for {
		if err := ctx.Err(); err != nil {
			return SearchResult{}, cancelled(op, id, err)
		}
		pg, err := w.Page(res.Next)
		if err != nil {
			return SearchResult{}, core.WithOp(err, op)
		}
		res.Total, res.First = pg.Total, pg.First
		if pg.Start > res.Next { // dropped before they were searched
			res.Dropped += pg.Start - res.Next
			res.Next = pg.Start
		}
		n := min(int64(len(pg.Lines)), max(pg.End-pg.Start, 0))
		if n == 0 {
			break
		}
		for i, line := range pg.Lines[:n] {
			num := pg.Start + int64(i)
			partial := pg.Partial && num == pg.End-1
			if scanned == MaxSearchScan || len(res.Matches) == limit {
				res.More = true
				return res, nil
			}
			if re.MatchString(line) {
				text := boundLine(line)
				if size+len(text) > s.opts.MaxResultBytes && len(res.Matches) > 0 {
					res.More = true
					return res, nil
				}
				size += len(text)
				res.Matches = append(res.Matches, SearchMatch{Line: num, Text: text})
			}
			scanned++
			if partial {
				return res, nil // Next stays on it: it may still grow
			}
			res.Next = num + 1
		}
		if res.Next >= pg.Total {
			break
		}
	}
	return res, nil
}

// watchTarget resolves a session or job id as Wait does.
func (s *Sessions) watchTarget(owner *core.Owner, target string, sources []WaitSource) (WaitWatcher, error) {
	for _, src := range sources {
		w, ok, err := src.Watch(owner, target)
		if err != nil {
			return nil, err
		}
		if ok {
			return w, nil
		}
	}
	sw := sessionWatcher{s: s, owner: owner, id: core.SessionID(target)}
	if _, err := sw.Status(); err != nil {
		return nil, err
	}
	return sw, nil
}

// boundLine cuts a line to maxMatchBytes, not inside a UTF-8 sequence.
func boundLine(line string) string {
	if len(line) <= maxMatchBytes {
		return line
	}
	return runecut.Head(line, maxMatchBytes) + "..."
}
