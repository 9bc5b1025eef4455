package ptysession

import (
	"fmt"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// LineRange is a run of output lines by global line number, both ends
// included (= core.LineRange).
type LineRange = core.LineRange

// CutPolicy says what a result keeps when output exceeds its bounds.
type CutPolicy int

// Cut policies.
const (
	// CutNewest keeps the newest output and drops the oldest (the
	// default).
	CutNewest CutPolicy = iota
	// CutKeepErrors keeps the first lines, the newest lines and the lines
	// between that look like errors (compiler and test failures,
	// tracebacks, panics), and replaces each run of lines left out with a
	// marker line naming its line numbers (see [core.CutLines]).
	CutKeepErrors
)

// cutNote is the part of a result's summary line that says what was cut:
// the ranges, or what (older output) when no ranges are known. skipped
// counts every line left out (-1: unknown); those beyond the ranges were
// no longer retained, and no read pages them.
func cutNote(cut []LineRange, skipped int64, what string) string {
	if len(cut) == 0 && skipped == 0 {
		return "; part of a long line cut" // no line left out (core.CutResult.Shortened)
	}
	if len(cut) == 0 {
		return "; " + what
	}
	var b strings.Builder
	var n int64
	for i, r := range cut {
		n += r.Len()
		if i < 8 {
			b.WriteString(", ")
			if r.From == r.To {
				fmt.Fprint(&b, r.From)
			} else {
				fmt.Fprintf(&b, "%d-%d", r.From, r.To)
			}
		} else if i == 8 {
			b.WriteString(", ...")
		}
	}
	if gone := skipped - n; skipped >= 0 && gone > 0 {
		return fmt.Sprintf("; the oldest %s are gone (the session keeps only its newest lines) and %d cut (lines %s; pty_read pages them); "+
			"the oldest kept lines, error lines and newest lines returned", plural(int(gone), "line"), n, b.String()[2:])
	}
	return fmt.Sprintf("; %s cut (lines %s; pty_read pages them); first lines, error lines and newest lines kept", plural(int(n), "line"), b.String()[2:])
}
