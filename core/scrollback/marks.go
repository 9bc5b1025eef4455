package scrollback

import (
	"bytes"
	"strconv"
)

// dispatchOSC acts on a complete OSC payload: only the OSC 133 shell
// integration markers B (prompt end) and D (command end, with an optional
// exit code and the options line=N and inq=0|1, see [Marks]) are recorded;
// everything else is dropped.
func (c *cleaner) dispatchOSC(b *Buffer) {
	if c.oscLong {
		return
	}
	kind, arg, opts, ok := parseMarker(c.osc)
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
		b.marks.InputLine, b.marks.InputLineValid, b.marks.InputPending = markerOptions(opts)
	}
}

// markerOptions reads the options of a D marker: line=N (the shell's count
// of input lines read, N >= 0) and inq=1 (input was pending). A marker
// without a valid line option reports valid false.
func markerOptions(opts []byte) (line int64, valid, pending bool) {
	for len(opts) > 0 {
		var opt []byte
		opt, opts, _ = bytes.Cut(opts, []byte(";"))
		key, val, _ := bytes.Cut(opt, []byte("="))
		switch string(key) {
		case "line":
			if n, err := strconv.ParseInt(string(val), 10, 64); err == nil && n >= 0 {
				line, valid = n, true
			}
		case "inq":
			pending = string(val) == "1"
		}
	}
	return line, valid, pending
}

// parseMarker splits an OSC payload of the form "133;K[;arg[;opts]]" into
// the marker letter, its first argument and the rest.
func parseMarker(p []byte) (kind byte, arg, opts []byte, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte("133;"))
	if !found || len(rest) == 0 {
		return 0, nil, nil, false
	}
	kind, rest = rest[0], rest[1:]
	if len(rest) > 0 {
		if rest[0] != ';' {
			return 0, nil, nil, false
		}
		rest = rest[1:]
	}
	arg, opts, _ = bytes.Cut(rest, []byte(";"))
	return kind, arg, opts, true
}
