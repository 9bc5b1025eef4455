package pattern

import (
	"fmt"
	"strconv"
	"strings"
)

// floodText is the fixed text after each flood line's number.
const floodText = " the quick brown fox jumps over the lazy dog"

// FloodLine returns line i of the flood child's output, without its line
// end: "flood 000042 the quick brown fox jumps over the lazy dog".
func FloodLine(i int) string {
	return fmt.Sprintf("flood %06d%s", i, floodText)
}

// ParseFloodLine returns the number of a flood line, and false if line is
// not exactly a flood line.
func ParseFloodLine(line string) (int, bool) {
	rest, ok := strings.CutPrefix(line, "flood ")
	if !ok {
		return 0, false
	}
	num, ok := strings.CutSuffix(rest, floodText)
	if !ok || len(num) < 6 || len(num) > 12 {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || FloodLine(n) != line {
		return 0, false
	}
	return n, true
}
