package main

import (
	"errors"
	"io"
	"os"
	"strconv"
	"time"
)

// The terminal queries: primary device attributes and cursor position.
const (
	queryDA1 = "\x1b[c"
	queryCPR = "\x1b[6n"
)

// runTermQueries asks the terminal for its device attributes and the
// cursor position in raw mode and waits up to SECONDS (default 5) for both
// replies. It prints "DA1 <params>" and "CPR <row> <col>" for what came
// back and "timeout" if a reply is missing (exit status 1).
func runTermQueries(args []string) int {
	wait := 5 * time.Second
	if len(args) > 1 {
		return fail("usage: term-queries [SECONDS]")
	}
	if len(args) == 1 {
		s, err := strconv.ParseFloat(args[0], 64)
		if err != nil || s <= 0 {
			return fail("term-queries: bad timeout %q", args[0])
		}
		wait = time.Duration(s * float64(time.Second))
	}
	st, err := changeMode(rawInput)
	if err != nil {
		return fail("term-queries: %v", err)
	}
	writeOut(queryDA1 + queryCPR)
	var got []byte
	var r replies
	deadline := time.Now().Add(wait)
	buf := make([]byte, 256)
	for time.Now().Before(deadline) {
		n, err := os.Stdin.Read(buf) // returns within 0.1 s (VTIME)
		got = append(got, buf[:n]...)
		r = parseReplies(got)
		// A read that times out (VTIME) returns no bytes, which os reports
		// as io.EOF; any other error ends the wait.
		if r.complete() || (err != nil && !errors.Is(err, io.EOF)) {
			break
		}
	}
	st.restore()
	if r.da1Found {
		writeOut("DA1 " + r.da1 + "\n")
	}
	if r.cprFound {
		writeOut("CPR " + strconv.Itoa(r.row) + " " + strconv.Itoa(r.col) + "\n")
	}
	if !r.complete() {
		writeOut("timeout\n")
		return 1
	}
	return 0
}
