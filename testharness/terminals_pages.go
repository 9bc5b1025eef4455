package testharness

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// floodSession runs `flood n` to completion and returns the session and
// the absolute number of flood line 0 (0 unless the seam adds a banner).
func (ts *termSuite) floodSession(t *testing.T, terms core.Terminals, owner *core.Owner, n int, limits core.ScrollbackLimits) (core.SessionID, int64) {
	t.Helper()
	req := ts.request(t, "flood", strconv.Itoa(n))
	req.NoInitialWait = true
	req.Scrollback = limits
	res := spawn(t, terms, owner, req)
	info := waitExited(t, terms, owner, res.ID)
	if info.Status != core.ExitedWithCode(0) {
		t.Fatalf("flood exited with %v", info.Status)
	}
	p, err := terms.Read(owner, res.ID, core.PageRequest{Newest: true, Count: 1})
	if err != nil || len(p.Lines) != 1 {
		t.Fatalf("Read newest line: %+v, %v", p, err)
	}
	last, ok := ParseFloodLine(p.Lines[0])
	if !ok || last != n-1 {
		t.Fatalf("the newest line is %q, want %q", p.Lines[0], FloodLine(n-1))
	}
	if info.TotalLines != p.Total {
		t.Errorf("Info.TotalLines = %d, page Total = %d", info.TotalLines, p.Total)
	}
	return res.ID, p.End - int64(n)
}

func floodLines(from, to int) []string {
	var l []string
	for i := from; i < to; i++ {
		l = append(l, FloodLine(i))
	}
	return l
}

// testPages: pages address lines by absolute numbers; Newest pages end at
// Total; Count 0 is the default 500; a cursor reads everything once.
func (ts *termSuite) testPages(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("pages")
	id, base := ts.floodSession(t, terms, owner, 1000, core.ScrollbackLimits{})
	total := base + 1000

	p, err := terms.Read(owner, id, core.PageRequest{Start: base + 100, Count: 10})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if !slices.Equal(p.Lines, floodLines(100, 110)) || p.Start != base+100 || p.End != base+110 ||
		p.Total != total || p.First != 0 || p.Truncated || p.Dropped != 0 || p.Partial {
		t.Errorf("page [%d,%d) = %+v; want flood lines 100..109", base+100, base+110, p)
	}
	p, err = terms.Read(owner, id, core.PageRequest{Newest: true, Count: 5})
	if err != nil || !slices.Equal(p.Lines, floodLines(995, 1000)) || p.Start != total-5 || p.End != total || p.Truncated {
		t.Errorf("newest 5 = %+v, %v; want flood lines 995..999", p, err)
	}
	p, err = terms.Read(owner, id, core.PageRequest{Start: base})
	if err != nil || len(p.Lines) != core.DefaultPageLines || p.Lines[0] != FloodLine(0) || p.End != base+core.DefaultPageLines {
		t.Errorf("a page of Count 0 has %d lines from %d (err %v), want the default %d from flood line 0", len(p.Lines), p.Start, err, core.DefaultPageLines)
	}
	p, err = terms.Read(owner, id, core.PageRequest{Start: total + 10, Count: 10})
	if err != nil || len(p.Lines) != 0 || p.Total != total {
		t.Errorf("a page past the end = %+v, %v; want no lines", p, err)
	}

	// A cursor over the seam's pages, as the facade's tail reads them.
	read := func(req core.PageRequest) (core.PageResult, error) { return terms.Read(owner, id, req) }
	var c core.Cursor
	d, err := c.Next(read, core.MaxPageLinesLimit, 1<<20)
	if err != nil || d.Truncated {
		t.Fatalf("cursor: %+v, %v", d, err)
	}
	if got := strings.Split(strings.TrimSuffix(d.Text, "\n"), "\n"); int64(len(got)) < base || !slices.Equal(got[base:], floodLines(0, 1000)) {
		t.Errorf("the cursor's text is not the flood: %d lines, the last %q", len(got), tail(d.Text, 200))
	}
	if d, err := c.Next(read, core.MaxPageLinesLimit, 1<<20); err != nil || d.Text != "" || d.Truncated {
		t.Errorf("a second cursor read = %+v, %v; want nothing new", d, err)
	}
}

// testPagesAfterDrop: once old lines are dropped, pages report First,
// Truncated and Dropped exactly, and a cursor reports the skipped lines.
func (ts *termSuite) testPagesAfterDrop(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("dropped")
	id, base := ts.floodSession(t, terms, owner, 1000, core.ScrollbackLimits{MaxLines: 100})
	total := base + 1000
	first := total - 100

	p, err := terms.Read(owner, id, core.PageRequest{Newest: true, Count: core.MaxPageLinesLimit})
	if err != nil || p.First != first || p.Start != first || p.End != total || !slices.Equal(p.Lines, floodLines(900, 1000)) {
		t.Errorf("newest page = First %d [%d,%d) %d lines (err %v); want First %d, flood lines 900..999", p.First, p.Start, p.End, len(p.Lines), err, first)
	}
	p, err = terms.Read(owner, id, core.PageRequest{Start: first - 50, Count: 100})
	if err != nil || !p.Truncated || p.Dropped != 50 || p.First != first || p.Start != first || p.End != first+50 ||
		!slices.Equal(p.Lines, floodLines(900, 950)) {
		t.Errorf("page [%d,%d) = Truncated %v Dropped %d First %d [%d,%d) %d lines (err %v); want Truncated, Dropped 50, flood lines 900..949 from %d",
			first-50, first+50, p.Truncated, p.Dropped, p.First, p.Start, p.End, len(p.Lines), err, first)
	}
	p, err = terms.Read(owner, id, core.PageRequest{Start: base, Count: 10})
	if err != nil || !p.Truncated || p.Dropped != 10 || len(p.Lines) != 0 || p.Start != first || p.End != first {
		t.Errorf("a wholly dropped page = %+v, %v; want no lines, Truncated, Dropped 10, at First", p, err)
	}

	read := func(req core.PageRequest) (core.PageResult, error) { return terms.Read(owner, id, req) }
	var c core.Cursor
	d, err := c.Next(read, core.MaxPageLinesLimit, 1<<20)
	if err != nil || !d.Truncated || d.SkippedLines != first {
		t.Errorf("cursor from line 0: Truncated %v SkippedLines %d (err %v); want truncated with %d skipped", d.Truncated, d.SkippedLines, err, first)
	}
	if got := strings.Split(strings.TrimSuffix(d.Text, "\n"), "\n"); !slices.Equal(got, floodLines(900, 1000)) {
		t.Errorf("cursor text has %d lines, want flood lines 900..999; ends %q", len(got), tail(d.Text, 120))
	}
}

// testPageSizes: bad page requests are INVALID_ARGUMENT; the bounds work.
func (ts *termSuite) testPageSizes(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("sizes")
	id, _ := ts.floodSession(t, terms, owner, 20, core.ScrollbackLimits{})
	for name, req := range map[string]core.PageRequest{
		"negative count":  {Count: -1},
		"count too large": {Count: core.MaxPageLinesLimit + 1},
		"negative start":  {Start: -1, Count: 10},
	} {
		_, err := terms.Read(owner, id, req)
		wantCode(t, "Read "+name, err, core.CodeInvalidArgument)
	}
	for name, req := range map[string]core.PageRequest{
		"largest count":        {Count: core.MaxPageLinesLimit},
		"newest ignores start": {Start: -1, Count: 3, Newest: true},
		"one line":             {Start: 19, Count: 1},
	} {
		if _, err := terms.Read(owner, id, req); err != nil {
			t.Errorf("Read %s: %v", name, err)
		}
	}
}
