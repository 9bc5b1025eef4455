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

// consoleFence is the pair of marker lines around a Console command.
type consoleFence struct {
	id         string
	begin, end string
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

// split returns the command's own text (between the markers) and the
// non-empty text outside them, in order.
func (f *consoleFence) split(raw string) (own string, outside []string) {
	add := func(s string) {
		if s != "" {
			outside = append(outside, s)
		}
	}
	i := strings.Index(raw, f.begin)
	if i < 0 {
		add(raw)
		return "", outside
	}
	add(raw[:i])
	rest := raw[i+len(f.begin):]
	j := strings.Index(rest, f.end)
	if j < 0 {
		return rest, outside
	}
	add(rest[j+len(f.end):])
	return rest[:j], outside
}
