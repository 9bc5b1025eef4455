package gdbmi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
)

// Console runs a gdb CLI command (-interpreter-exec console) and returns
// exactly the console text the command printed.
//
// gdb's stream records carry no token, and gdb prints text of its own at
// any moment ("[New Thread ...]", "[Thread ... exited]" while the program
// runs), so text printed between writing a command and gdb reading it
// would otherwise look like the command's. Console therefore runs the
// command between two echo commands in the same -interpreter-exec batch,
// each printing a marker unique to the call (a control byte, a random
// per-client nonce and a counter); gdb runs a batch without handling
// program events in between, so the text between the markers is the
// command's own. Console text outside the markers is delivered on
// [Client.Events] as console stream records. If the command fails, gdb
// skips the closing marker: the text from the opening marker on is
// returned with the [*MIError].
func (c *Client) Console(ctx context.Context, command string) (string, error) {
	fence := c.newFence()
	line, err := buildCommand("-interpreter-exec", []string{"console",
		`echo \036` + fence.id + `<\n`, command, `echo \036` + fence.id + `>\n`})
	if err != nil {
		return "", err
	}
	res, err := c.execLine(ctx, line, fence)
	if res == nil {
		return "", err
	}
	return res.Console, err
}

// consoleFence is the pair of marker lines around one Console command, and
// the state of sorting that call's console text as it arrives: text
// before the opening marker and after the closing one goes to the events
// at once (in gdb's order), text between them is the command's own.
type consoleFence struct {
	id         string
	begin, end string

	phase   int    // 0 before the opening marker, 1 inside, 2 after the closing one
	pending string // text that may be the start of the next marker
	own     strings.Builder
}

func (c *Client) newFence() *consoleFence {
	c.fenceOnce.Do(func() {
		var b [8]byte
		_, _ = rand.Read(b[:])
		c.fenceNonce = hex.EncodeToString(b[:])
	})
	id := "gdbmi-" + c.fenceNonce + "-" + strconv.FormatUint(c.fenceSeq.Add(1), 10)
	return &consoleFence{id: id, begin: "\x1e" + id + "<\n", end: "\x1e" + id + ">\n"}
}

// feed takes the call's console text in arrival order and returns the
// text now known to lie outside the markers.
func (f *consoleFence) feed(text string) (outside []string) {
	s := f.pending + text
	f.pending = ""
	for s != "" {
		switch f.phase {
		case 0:
			if i := strings.Index(s, f.begin); i >= 0 {
				outside = appendText(outside, s[:i])
				s, f.phase = s[i+len(f.begin):], 1
				continue
			}
			k := partialMarker(s, f.begin)
			outside = appendText(outside, s[:k])
			f.pending, s = s[k:], ""
		case 1:
			if i := strings.Index(s, f.end); i >= 0 {
				f.own.WriteString(s[:i])
				s, f.phase = s[i+len(f.end):], 2
				continue
			}
			k := partialMarker(s, f.end)
			f.own.WriteString(s[:k])
			f.pending, s = s[k:], ""
		default:
			outside = appendText(outside, s)
			s = ""
		}
	}
	return outside
}

// finish ends the call: it returns the command's own text and the text
// still held back. Without an opening marker everything was outside; with
// no closing one (the command failed and gdb skipped the rest of the
// batch) the text after the opening marker is the command's.
func (f *consoleFence) finish() (own string, outside []string) {
	switch f.phase {
	case 0:
		outside = appendText(outside, f.pending)
	case 1:
		f.own.WriteString(f.pending)
	}
	f.pending = ""
	return f.own.String(), outside
}

// partialMarker returns where a suffix of s that is a proper prefix of
// marker starts (len(s) when none): that text waits for the next record.
func partialMarker(s, marker string) int {
	for i := max(0, len(s)-len(marker)+1); i < len(s); i++ {
		if strings.HasPrefix(marker, s[i:]) {
			return i
		}
	}
	return len(s)
}

func appendText(list []string, s string) []string {
	if s == "" {
		return list
	}
	return append(list, s)
}
