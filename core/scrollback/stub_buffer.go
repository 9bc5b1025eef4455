package scrollback

// THIS FILE IS A PLACEHOLDER: the real implementation replaces it.

// Buffer is a bounded store of cleaned, numbered lines. It is not safe for
// concurrent use; callers serialise access.
type Buffer struct{ l Limits }

// New returns an empty Buffer with the given limits (zero fields: defaults).
func New(l Limits) *Buffer { return &Buffer{l: l} }

// Write cleans p and appends it. It never fails.
func (b *Buffer) Write(p []byte) (int, error) { return len(p), nil }

// Page returns the lines req selects, at most maxBytes of text (<= 0: no
// byte bound). It always returns at least one line when any is selected,
// cut to its last maxBytes bytes if it alone is too long.
func (b *Buffer) Page(req PageRequest, maxBytes int) Page { return Page{} }

// Marks returns the shell-integration markers seen so far.
func (b *Buffer) Marks() Marks { return Marks{} }

// Stats returns counters.
func (b *Buffer) Stats() Stats { return Stats{} }

// Total returns Page.Total without building a page.
func (b *Buffer) Total() int64 { return 0 }

// End returns a Cursor positioned at the end of the output so far: its
// next delta holds only output written after this call (continuing the
// current partial line, if any).
func (b *Buffer) End() Cursor { return Cursor{} }

// Cursor is an incremental read position. The zero Cursor starts at line 0.
type Cursor struct {
	next   int64  // next line to return (the partial line, if col > 0)
	col    int    // bytes of line next already returned
	prefix string // the text of line next already returned
}

// Next returns the output since the cursor and advances it. read serves
// pages (a Buffer's Page, or a remote seam's page read); it is called once
// with a Newest request of maxLines lines. At most maxLines lines and about
// maxBytes bytes are returned; if more was pending, the newest part is
// returned and the delta is marked truncated with the exact count of
// skipped lines.
func (c *Cursor) Next(read func(PageRequest) (Page, error), maxLines, maxBytes int) (Delta, error) {
	return Delta{}, nil
}
