package testharness

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	require.Equal(t, core.ExitedWithCode(0), info.Status, "flood's exit status")
	p, err := terms.Read(owner, res.ID, core.PageRequest{Newest: true, Count: 1})
	require.NoError(t, err, "Read newest line")
	require.Equal(t, []string{FloodLine(n - 1)}, p.Lines, "the newest line")
	assert.Equal(t, p.Total, info.TotalLines, "Info.TotalLines against the page's Total")
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

	wantPage(t, "page [100,110) of the flood", terms, owner, id, core.PageRequest{Start: base + 100, Count: 10},
		core.PageResult{Lines: floodLines(100, 110), PageSpan: core.PageSpan{Start: base + 100, End: base + 110, Total: total}})
	wantPage(t, "newest 5", terms, owner, id, core.PageRequest{Newest: true, Count: 5},
		core.PageResult{Lines: floodLines(995, 1000), PageSpan: core.PageSpan{Start: total - 5, End: total, Total: total}})
	wantPage(t, "a page of Count 0 (the default size)", terms, owner, id, core.PageRequest{Start: base},
		core.PageResult{Lines: floodLines(0, core.DefaultPageLines), PageSpan: core.PageSpan{Start: base, End: base + core.DefaultPageLines, Total: total}})
	wantPage(t, "a page past the end", terms, owner, id, core.PageRequest{Start: total + 10, Count: 10},
		core.PageResult{PageSpan: core.PageSpan{Start: total, End: total, Total: total}})

	// A cursor over the seam's pages, as the facade's tail reads them.
	read := func(req core.PageRequest) (core.PageResult, error) { return terms.Read(owner, id, req) }
	var c core.Cursor
	d, err := c.Next(read, core.MaxPageLinesLimit, 1<<20)
	require.NoError(t, err, "cursor")
	require.False(t, d.Truncated, "the first cursor read is truncated")
	got := strings.Split(strings.TrimSuffix(d.Text, "\n"), "\n")
	require.GreaterOrEqual(t, int64(len(got)), base, "cursor lines")
	if diff := cmp.Diff(floodLines(0, 1000), got[base:]); diff != "" {
		t.Errorf("the cursor's text is not the flood (-want +got):\n%s", diff)
	}
	d, err = c.Next(read, core.MaxPageLinesLimit, 1<<20)
	require.NoError(t, err, "second cursor read")
	assert.Equal(t, core.OutputDelta{}, d, "a second cursor read: want nothing new")
}

// wantPage reads req and compares the whole page with want.
func wantPage(t *testing.T, what string, terms core.Terminals, owner *core.Owner, id core.SessionID, req core.PageRequest, want core.PageResult) {
	t.Helper()
	p, err := terms.Read(owner, id, req)
	if err != nil {
		t.Errorf("%s: Read(%+v): %v", what, req, err)
		return
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("%s: Read(%+v) (-want +got):\n%s", what, req, diff)
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

	wantPage(t, "the newest page", terms, owner, id, core.PageRequest{Newest: true, Count: core.MaxPageLinesLimit},
		// The request reaches back to line 0: all that was dropped before First is reported.
		core.PageResult{Lines: floodLines(900, 1000), PageSpan: core.PageSpan{Start: first, End: total, Total: total, First: first, Truncated: true, Dropped: first}})
	wantPage(t, "a page half dropped", terms, owner, id, core.PageRequest{Start: first - 50, Count: 100},
		core.PageResult{Lines: floodLines(900, 950), PageSpan: core.PageSpan{Start: first, End: first + 50, Total: total, First: first, Truncated: true, Dropped: 50}})
	wantPage(t, "a wholly dropped page", terms, owner, id, core.PageRequest{Start: base, Count: 10},
		core.PageResult{PageSpan: core.PageSpan{Start: first, End: first, Total: total, First: first, Truncated: true, Dropped: 10}})

	read := func(req core.PageRequest) (core.PageResult, error) { return terms.Read(owner, id, req) }
	var c core.Cursor
	d, err := c.Next(read, core.MaxPageLinesLimit, 1<<20)
	require.NoError(t, err, "cursor from line 0")
	want := core.OutputDelta{Text: strings.Join(floodLines(900, 1000), "\n") + "\n", Truncated: true, Skipped: first}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("cursor from line 0 (-want +got):\n%s", diff)
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
		_, err := terms.Read(owner, id, req)
		assert.NoError(t, err, "Read %s", name)
	}
}
