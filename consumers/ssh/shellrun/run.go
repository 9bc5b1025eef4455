package shellrun

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/promptmark"
	"github.com/ptyseam/ptyseam/internal/shellquote"
)

// Terminals is what Run needs from the service; *core.Service has it.
type Terminals interface {
	Tap(owner *core.Owner, id core.SessionID) (*core.Tap, error)
	Write(ctx context.Context, owner *core.Owner, id core.SessionID, data []byte) (int, error)
	Info(owner *core.Owner, id core.SessionID) (core.SessionInfo, error)
}

// Options tune Run.
type Options struct {
	// MaxOutput bounds the output kept (the newest part is kept; default
	// 4 MiB).
	MaxOutput int
	// Enter ends the typed line ("\r" when empty, the terminal's Enter).
	Enter string
}

// Result is a finished command.
type Result struct {
	// Output is what the command printed, with the terminal's CRLF line
	// ends turned into LF. It is exact otherwise: a final line without a
	// newline stays without one.
	Output string
	// ExitCode is the command's exit status ($?).
	ExitCode int
	// Truncated reports that the start of Output was dropped.
	Truncated bool
}

// ErrNoFrame reports that the session's output ended before the command's
// end marker appeared (the shell exited, or the session closed).
var ErrNoFrame = errors.New("shellrun: the session ended before the command finished")

const (
	beginTag = "PTYSEAM_B_"
	endTag   = "PTYSEAM_E_"
)

// Line returns the line Run types for command with the given nonce
// (without the Enter key).
func Line(command, nonce string) string {
	return "printf '%s%s\\n' " + beginTag + " " + nonce + "; eval " + shellquote.Quote(command) +
		"; printf '\\n%s%s %d\\n' " + endTag + " " + nonce + ` "$?"`
}

// Run runs command in the shell of session id and waits, bounded by ctx,
// for it to finish. It fails with ErrSendActive-coded errors while a send
// is live on the session. If ctx ends first, the command keeps running.
func Run(ctx context.Context, t Terminals, owner *core.Owner, id core.SessionID, command string, opts Options) (Result, error) {
	if strings.IndexByte(command, 0) >= 0 {
		return Result{}, &core.Error{Code: core.CodeInvalidArgument, Op: "run", Session: id, Msg: "the command contains a NUL byte, which no shell can read"}
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = 4 << 20
	}
	if opts.Enter == "" {
		opts.Enter = "\r"
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return Result{}, err
	}
	nonce := hex.EncodeToString(raw)
	info, err := t.Info(owner, id)
	if err != nil {
		return Result{}, err
	}
	tap, err := t.Tap(owner, id)
	if err != nil {
		return Result{}, err
	}
	defer tap.Close()
	if _, err := t.Write(ctx, owner, id, []byte(Line(command, nonce)+opts.Enter)); err != nil {
		return Result{}, err
	}
	f := NewFramer(nonce, opts.MaxOutput)
	for {
		chunk, err := tap.Next(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return Result{}, ErrNoFrame
			}
			return Result{}, err
		}
		if res, done := f.Feed(chunk); done {
			// A shell that marks its prompts: return once the prompt
			// after the command is there too, so that the next send
			// does not take it for its own. The marking may have begun
			// during this run (the command that follows a marker
			// install): the prompts the service counted by the end of
			// the frame say so, since the service counts output before
			// a tap sees it.
			if marksPrompts(t, owner, id, info) {
				awaitPrompt(ctx, tap, f.Rest())
			}
			return res, nil
		}
	}
}

// marksPrompts reports whether the shell of id printed a marked prompt
// before now, or had before the run (before).
func marksPrompts(t Terminals, owner *core.Owner, id core.SessionID, before core.SessionInfo) bool {
	if before.Prompts > 0 {
		return true
	}
	now, err := t.Info(owner, id)
	return err == nil && now.Prompts > 0
}

// promptWait bounds the wait for the prompt after a command's frame.
const promptWait = 2 * time.Second

// awaitPrompt reads the tap until a prompt marker arrived (seen holds what
// followed the frame already), for at most promptWait.
func awaitPrompt(ctx context.Context, tap *core.Tap, seen []byte) {
	ctx, cancel := context.WithTimeout(ctx, promptWait)
	defer cancel()
	buf := append([]byte(nil), seen...)
	for !promptmark.ContainsPromptEnd(buf) {
		chunk, err := tap.Next(ctx)
		if err != nil {
			return
		}
		buf = append(buf[max(0, len(buf)-len(promptmark.PromptEnd)):], chunk...)
	}
}

// Framer finds one command's frame in a stream of terminal output.
type Framer struct {
	begin, end []byte
	endRx      *regexp.Regexp
	max        int
	buf        []byte // output before the begin marker, or the frame body
	started    bool
	dropped    bool
	scanned    int // f.buf[:scanned] held no end marker
	rest       []byte
}

// Rest returns the output that followed the end marker in the chunk that
// completed the frame.
func (f *Framer) Rest() []byte { return f.rest }

// NewFramer returns a framer for nonce that keeps at most max bytes of
// output (max <= 0: no bound).
func NewFramer(nonce string, max int) *Framer {
	return &Framer{
		begin: []byte(beginTag + nonce),
		end:   []byte(endTag + nonce),
		endRx: regexp.MustCompile(`\r?\n` + endTag + nonce + ` (\d+)\r?\n`),
		max:   max,
	}
}

// Feed adds output and reports the result once the end marker arrived.
func (f *Framer) Feed(p []byte) (Result, bool) {
	f.buf = append(f.buf, p...)
	if !f.started {
		i := bytes.Index(f.buf, f.begin)
		if i < 0 {
			// Keep only what could be the start of a split marker.
			if k := len(f.buf) - len(f.begin); k > 0 {
				f.buf = f.buf[k:]
			}
			return Result{}, false
		}
		rest := f.buf[i+len(f.begin):]
		// The marker line ends with the terminal's line end.
		switch {
		case bytes.HasPrefix(rest, []byte("\r\n")):
			rest = rest[2:]
		case bytes.HasPrefix(rest, []byte("\n")):
			rest = rest[1:]
		case len(rest) < 2:
			return Result{}, false
		}
		f.buf = append([]byte(nil), rest...)
		f.started = true
	}
	// Search only what could hold a marker that was not there before, so
	// that many small chunks cost linear time.
	from := max(0, f.scanned-len(f.end)-32)
	f.scanned = len(f.buf)
	if m := f.endRx.FindSubmatchIndex(f.buf[from:]); m != nil {
		for i := range m {
			m[i] += from
		}
		code, err := strconv.Atoi(string(f.buf[m[2]:m[3]]))
		if err != nil {
			code = -1
		}
		f.rest = append([]byte(nil), f.buf[m[1]:]...)
		out := bytes.ReplaceAll(f.buf[:m[0]], []byte("\r\n"), []byte("\n"))
		return Result{Output: string(out), ExitCode: code, Truncated: f.dropped}, true
	}
	// Bound the body, keeping a tail long enough to hold a split marker.
	if f.max > 0 && len(f.buf) > f.max+len(f.end)+32 {
		cut := len(f.buf) - (f.max + len(f.end) + 32)
		f.buf = append([]byte(nil), f.buf[cut:]...)
		f.scanned -= cut
		f.dropped = true
	}
	return Result{}, false
}
