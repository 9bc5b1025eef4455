package scrollback

import (
	"bytes"
	"strconv"
)

// dispatchOSC acts on a complete OSC payload: only the OSC 133 shell
// integration markers B (prompt end) and D (command end, with an optional
// exit code) are recorded; everything else is dropped.
func (c *cleaner) dispatchOSC(b *Buffer) {
	if c.oscLong {
		return
	}
	kind, arg, ok := parseMarker(c.osc)
	if !ok {
		return
	}
	switch kind {
	case 'B':
		b.marks.PromptEnds++
		b.marks.TextSincePromptEnd = 0
	case 'D':
		b.marks.CommandEnds++
		b.marks.LastExitCode, b.marks.LastExitValid = 0, false
		if n, err := strconv.Atoi(string(arg)); err == nil {
			b.marks.LastExitCode, b.marks.LastExitValid = n, true
		}
	}
}

// parseMarker splits an OSC payload of the form "133;K[;arg[;...]]" into
// the marker letter and its first argument.
func parseMarker(p []byte) (kind byte, arg []byte, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte("133;"))
	if !found || len(rest) == 0 {
		return 0, nil, false
	}
	kind, rest = rest[0], rest[1:]
	if len(rest) > 0 {
		if rest[0] != ';' {
			return 0, nil, false
		}
		rest = rest[1:]
	}
	arg, _, _ = bytes.Cut(rest, []byte(";"))
	return kind, arg, true
}
