package tools

import (
	"strconv"

	"github.com/ptyseam/ptyseam/internal/runecut"
)

// Bound returns s if it is at most max bytes long. Otherwise it keeps the
// first quarter and the last part of the budget, cut at UTF-8 boundaries,
// with a marker between them saying how many bytes were cut; the result is
// at most max bytes. With max too small to hold the marker, it keeps only
// the last max bytes. max <= 0 means no bound.
func Bound(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	// The marker's length depends on the number it holds; size it for the
	// largest possible cut.
	m := cutMarker(len(s))
	if max < len(m)+8 {
		return TailRunes(s, max)
	}
	budget := max - len(m)
	head := HeadRunes(s, budget/4)
	tail := TailRunes(s[len(head):], budget-len(head))
	return head + cutMarker(len(s)-len(head)-len(tail)) + tail
}

// BoundHead returns s if it is at most max bytes long. Otherwise it keeps
// the start, cut at a UTF-8 boundary, and ends with a marker saying how many
// bytes were cut; the result is at most max bytes. With max too small to
// hold the marker, it keeps only the first max bytes. max <= 0 means no
// bound.
func BoundHead(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	m := headMarker(len(s))
	if max < len(m) {
		return HeadRunes(s, max)
	}
	head := HeadRunes(s, max-len(m))
	return head + headMarker(len(s)-len(head))
}

func headMarker(n int) string {
	return "\n[... " + strconv.Itoa(n) + " bytes cut ...]"
}

func cutMarker(n int) string {
	return "\n[... " + strconv.Itoa(n) + " bytes cut ...]\n"
}

// HeadRunes returns the longest prefix of s of at most n bytes that does
// not split a UTF-8 sequence.
func HeadRunes(s string, n int) string { return runecut.Head(s, n) }

// TailRunes returns the longest suffix of s of at most n bytes that does
// not start inside a UTF-8 sequence.
func TailRunes(s string, n int) string { return runecut.Tail(s, n) }
