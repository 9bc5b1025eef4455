package jobs

import (
	"errors"
	"fmt"
	"regexp"
	"slices"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/pattern"
)

// Read bounds.
const (
	DefaultReadLimit = 100
	MaxReadLimit     = 5000
	// MaxReadBytes bounds the text of one read; a read that reaches it
	// ends early (Truncated, and Next says where to go on).
	MaxReadBytes = 256 << 10
	// MaxPatternLen bounds a read's regular expression: the bound of
	// every pattern a caller gives ptyseam (pty_wait's too).
	MaxPatternLen = pattern.MaxLen
	// readChunk is how many lines one scrollback page of a read asks for.
	readChunk = 1000
)

// ReadRequest selects lines of a job's output.
type ReadRequest struct {
	// From is the global line number to resume from (a previous read's
	// Next; 0 is the first line the job ever printed). Nil reads the
	// newest lines.
	From *int64
	// Limit is the most lines to return (0: DefaultReadLimit; at most
	// MaxReadLimit).
	Limit int
	// Pattern, when set, returns only lines matching this regular
	// expression (Go RE2 syntax); the scan goes on past lines that do
	// not match. IgnoreCase makes it case-insensitive.
	Pattern    string
	IgnoreCase bool
}

// Line is one line of a job's output.
type Line struct {
	// N is the line's global number.
	N int64
	// Text is the line without its line end, ANSI sequences stripped.
	Text string
	// Partial marks the unterminated last line: the program is still
	// writing it.
	Partial bool
}

// ReadResult is one page of a job's output.
type ReadResult struct {
	// Lines are the lines read, oldest first.
	Lines []Line
	// Next is where the next read resumes (pass it as From): the line
	// after the last one examined, except that an unterminated last line
	// is read again next time, so a line is never lost while it is being
	// written.
	Next int64
	// Total counts every line so far; First is the oldest retained one.
	Total, First int64
	// Dropped counts lines from From on that were no longer retained (the
	// buffer had dropped them); Truncated is set when Dropped > 0 or when
	// the read stopped at MaxReadBytes.
	Dropped   int64
	Truncated bool
	// More reports that lines after Next exist already.
	More bool
	// State is the job's state at the time of the read.
	State State
	// ExitCode and Signal say how the job ended once it has (see Info).
	ExitCode *int
	Signal   string
	// Outcome describes the job's state as [Outcome] does ("failed (exit
	// 4)").
	Outcome string
}

// Read returns lines of owner's job id: from req.From on (or the newest
// ones), optionally only those matching req.Pattern. It works while the
// job runs and after it ended, until its record is dropped.
func (m *Manager) Read(owner *core.Owner, id string, req ReadRequest) (ReadResult, error) {
	j, err := m.lookup("read", owner, id)
	if err != nil {
		return ReadResult{}, err
	}
	limit := req.Limit
	switch {
	case limit == 0:
		limit = DefaultReadLimit
	case limit < 0 || limit > MaxReadLimit:
		return ReadResult{}, invalid("read", fmt.Sprintf("limit must be 1 to %d", MaxReadLimit))
	}
	if req.From != nil && *req.From < 0 {
		return ReadResult{}, invalid("read", "from must not be negative")
	}
	re, err := compilePattern(req.Pattern, req.IgnoreCase)
	if err != nil {
		return ReadResult{}, err
	}
	j.mu.Lock()
	released := j.released
	j.mu.Unlock()
	if released {
		return ReadResult{}, jobError(CodeOutputReleased, "read", id, "the job's output was released when its session had to be closed")
	}
	r := reader{m: m, j: j, limit: limit, re: re}
	var res ReadResult
	if req.From == nil {
		res, err = r.newest()
	} else {
		res, err = r.forward(*req.From)
	}
	if err != nil {
		return ReadResult{}, err
	}
	in := j.snapshot()
	res.State, res.ExitCode, res.Signal, res.Outcome = in.State, in.ExitCode, in.Signal, Outcome(in)
	return res, nil
}

func compilePattern(p string, ignoreCase bool) (*regexp.Regexp, error) {
	re, err := pattern.Compile(p, ignoreCase)
	switch {
	case errors.Is(err, pattern.ErrTooLong):
		return nil, invalid("read", err.Error())
	case err != nil:
		return nil, &core.Error{Code: core.CodeInvalidArgument, Op: "read", Msg: "bad pattern", Err: err}
	}
	return re, nil
}

type reader struct {
	m     *Manager
	j     *job
	limit int
	re    *regexp.Regexp
	bytes int
}

func (r *reader) page(start int64, count int) (core.PageResult, error) {
	return r.m.svc.Read(r.j.sowner, r.j.sid, core.PageRequest{Start: start, Count: count})
}

func (r *reader) match(s string) bool { return r.re == nil || r.re.MatchString(s) }

// fits reports whether one more line of text fits the byte bound (the
// first line always does).
func (r *reader) fits(lines int, text string) bool {
	return lines == 0 || r.bytes+len(text) <= MaxReadBytes
}

// forward scans from `from` towards the end.
func (r *reader) forward(from int64) (ReadResult, error) {
	var res ReadResult
	cur := from
	sawPartial := false // the unterminated line at Next was examined
	for {
		p, err := r.page(cur, readChunk)
		if err != nil {
			return res, err
		}
		res.Total, res.First = p.Total, p.First
		if cur > p.Total {
			cur = p.Total // beyond the end: resume at the end
		}
		skipped := false
		if p.Start > cur { // dropped before or during the scan
			res.Dropped += p.Start - cur
			cur, skipped = p.Start, true
		}
		if len(p.Lines) == 0 {
			if skipped && cur < p.Total {
				continue // from was more than a page behind: read the oldest kept lines
			}
			break
		}
		stop := false
		for i, text := range p.Lines {
			n := p.Start + int64(i)
			partial := p.Partial && i == len(p.Lines)-1
			if r.match(text) {
				if !r.fits(len(res.Lines), text) {
					res.Truncated, stop = true, true
					break
				}
				r.bytes += len(text)
				res.Lines = append(res.Lines, Line{N: n, Text: text, Partial: partial})
			}
			cur = n + 1
			if partial {
				cur, sawPartial = n, true // read it again next time
			}
			if len(res.Lines) == r.limit {
				stop = true
				break
			}
		}
		if stop || p.End >= p.Total || p.Partial {
			break
		}
	}
	res.Next = cur
	res.Truncated = res.Truncated || res.Dropped > 0
	res.More = res.Next < res.Total && !(sawPartial && res.Next == res.Total-1)
	return res, nil
}

// newest returns the newest matching lines, scanning windows of the
// buffer from the end backwards.
func (r *reader) newest() (ReadResult, error) {
	var res ReadResult
	p, err := r.m.svc.Read(r.j.sowner, r.j.sid, core.PageRequest{Newest: true, Count: 1})
	if err != nil {
		return res, err
	}
	total, first := p.Total, p.First
	res.Total, res.First, res.Next = total, first, total
	if p.Partial && len(p.Lines) == 1 {
		res.Next = total - 1 // resume at the unterminated line
	}
	var lines []Line
	for end := total; end > first && len(lines) < r.limit && !res.Truncated; {
		start := max(first, end-readChunk)
		win, cut, err := r.window(start, end, r.limit-len(lines))
		if err != nil {
			return res, err
		}
		lines = append(win, lines...)
		res.Truncated = cut
		end = start
	}
	res.Lines = lines
	return res, nil
}

// window returns the newest matching lines of [start, end), at most need
// of them and as many as fit the byte bound (cut reports that one did
// not).
func (r *reader) window(start, end int64, need int) (ms []Line, cut bool, err error) {
	budget := MaxReadBytes - r.bytes
	size := 0
	for cur := start; cur < end; {
		pg, err := r.page(cur, int(end-cur))
		if err != nil {
			return nil, false, err
		}
		if len(pg.Lines) == 0 || pg.Start >= end {
			break
		}
		for i, text := range pg.Lines {
			n := pg.Start + int64(i)
			if n >= end {
				break
			}
			if !r.match(text) {
				continue
			}
			partial := pg.Partial && i == len(pg.Lines)-1
			ms = append(ms, Line{N: n, Text: text, Partial: partial})
			size += len(text)
			for len(ms) > need {
				size -= len(ms[0].Text)
				ms = ms[1:]
			}
			// Keep the newest lines that fit; the very first line of a
			// read always fits.
			for size > budget && !(len(ms) == 1 && r.bytes == 0) {
				size -= len(ms[0].Text)
				ms = ms[1:]
				cut = true
			}
		}
		cur = max(pg.End, cur+1)
	}
	r.bytes += size
	return slices.Clip(ms), cut, nil
}
