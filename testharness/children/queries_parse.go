package main

// replies are the answers found in terminal input.
type replies struct {
	da1      string // DA1 parameters, e.g. "?62;22"
	da1Found bool
	row, col int // CPR position
	cprFound bool
}

func (r replies) complete() bool { return r.da1Found && r.cprFound }

// parseReplies scans terminal input for a DA1 reply (ESC [ ? params c) and
// a cursor position report (ESC [ row ; col R). Other bytes are skipped.
func parseReplies(b []byte) replies {
	var r replies
	for i := 0; i+1 < len(b); i++ {
		if b[i] != 0x1b || b[i+1] != '[' {
			continue
		}
		j := i + 2
		for j < len(b) && (b[j] == '?' || b[j] == ';' || (b[j] >= '0' && b[j] <= '9')) {
			j++
		}
		if j >= len(b) {
			break
		}
		params := string(b[i+2 : j])
		switch b[j] {
		case 'c':
			if len(params) > 1 && params[0] == '?' && !r.da1Found {
				r.da1, r.da1Found = params, true
			}
		case 'R':
			if row, col, ok := parsePosition(params); ok && !r.cprFound {
				r.row, r.col, r.cprFound = row, col, true
			}
		}
		i = j
	}
	return r
}

// parsePosition reads "row;col" with both numbers positive.
func parsePosition(p string) (row, col int, ok bool) {
	n, semi := 0, 0
	var vals [2]int
	digits := 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == ';':
			if digits == 0 || semi == 1 {
				return 0, 0, false
			}
			vals[0], n, digits, semi = n, 0, 0, 1
		case c >= '0' && c <= '9':
			if digits >= 6 {
				return 0, 0, false
			}
			n = n*10 + int(c-'0')
			digits++
		default:
			return 0, 0, false
		}
	}
	if semi != 1 || digits == 0 {
		return 0, 0, false
	}
	vals[1] = n
	if vals[0] < 1 || vals[1] < 1 {
		return 0, 0, false
	}
	return vals[0], vals[1], true
}
