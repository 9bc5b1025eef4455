package gdbmi

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Exec sends an MI command with a fresh token and returns when gdb printed
// that token's result record (^done, ^running, ^connected, ^error or
// ^exit), never waiting for the prompt (in asynchronous mode gdb prints
// the prompt after -target-attach's result only once another command
// arrives) nor on a timer. command is the MI command name ("-break-insert"; the leading '-'
// may be omitted); each arg is sent as it is when it holds no blank, quote,
// backslash or control character, and as a quoted c-string otherwise.
//
// A ^error result returns the [*Result] and an [*MIError] with gdb's message
// and code. If ctx ends first Exec returns ctx's error (gdb still runs the
// command; its output is discarded). If gdb exits or is killed, Exec returns
// an [*ExitedError] at once.
func (c *Client) Exec(ctx context.Context, command string, args ...string) (*Result, error) {
	line, err := buildCommand(command, args)
	if err != nil {
		return nil, err
	}
	if resumes(command) {
		c.discardStops()
	}
	return c.execLine(ctx, line, nil)
}

// resumingCommands are the MI commands that start, resume or attach to the
// program, so that a *stopped record follows: Exec discards the stops
// nobody waited for before it sends one, and WaitStopped then returns the
// stop the command caused.
var resumingCommands = map[string]bool{
	"exec-run": true, "exec-continue": true, "exec-next": true, "exec-step": true,
	"exec-finish": true, "exec-until": true, "exec-jump": true,
	"exec-next-instruction": true, "exec-step-instruction": true,
	"target-attach": true,
}

// resumes reports whether command (with or without its leading '-') is
// one of resumingCommands.
func resumes(command string) bool {
	return resumingCommands[strings.TrimPrefix(command, "-")]
}

func buildCommand(command string, args []string) (string, error) {
	if command == "" || strings.ContainsAny(command, " \t\r\n\"") {
		return "", fmt.Errorf("%w: command name %q", ErrInvalidCommand, command)
	}
	var b strings.Builder
	if command[0] != '-' {
		b.WriteByte('-')
	}
	b.WriteString(command)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(quoteArg(a))
	}
	return b.String(), nil
}

// quoteArg returns a as gdb's MI command parser reads it back.
func quoteArg(a string) string {
	if a == "" {
		return `""`
	}
	for i := 0; i < len(a); i++ {
		if c := a[i]; c <= ' ' || c == '"' || c == '\\' || c == 0x7f {
			return Quote(a)
		}
	}
	return a
}

// execLine sends line and waits for its result. With a fence, the console
// text outside the fence's markers is handed to the events.
func (c *Client) execLine(ctx context.Context, line string, fence *consoleFence) (*Result, error) {
	cl, err := c.send(ctx, line, fence)
	if err != nil {
		return nil, err
	}
	select {
	case <-cl.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("gdbmi: %s: %w", line, ctx.Err())
	}
	if cl.err != nil {
		return nil, cl.err
	}
	c.mu.Lock()
	res := &Result{
		Token:   cl.token,
		Class:   cl.rec.Class,
		Results: cl.rec.Results,
		Console: cl.console.String(),
		Target:  cl.target.String(),
		Log:     cl.log.String(),
	}
	c.mu.Unlock()
	if res.Class == ClassError {
		return res, &MIError{Command: line, Msg: res.Get("msg").Str(), Code: res.Get("code").Str()}
	}
	return res, nil
}

// send registers a call and writes its line. Writes are serialized so that
// the in-flight order matches the order gdb reads commands in.
func (c *Client) send(ctx context.Context, line string, fence *consoleFence) (*call, error) {
	select {
	case c.writeSem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("gdbmi: %s: %w", line, ctx.Err())
	}
	defer func() { <-c.writeSem }()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	if c.dead != nil {
		err := c.dead
		c.mu.Unlock()
		return nil, err
	}
	tok := c.nextTok.Add(1)
	cl := &call{token: tok, command: line, done: make(chan struct{}), fence: fence}
	c.pending[tok] = cl
	c.inflight = append(c.inflight, cl)
	c.mu.Unlock()

	data := []byte(strconv.FormatUint(tok, 10) + line + "\n")
	n, err := c.svc.Write(ctx, c.owner, c.gdbID, data)
	if err == nil {
		return cl, nil
	}
	if n > 0 && n < len(data) {
		// gdb holds part of the line: end it so that gdb answers (with an
		// error, under this token) and the next command starts clean.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_, _ = c.svc.Write(fctx, c.owner, c.gdbID, []byte("\n"))
		cancel()
	} else {
		c.mu.Lock()
		if c.pending[tok] == cl {
			delete(c.pending, tok)
			for i, x := range c.inflight {
				if x == cl {
					c.inflight = append(c.inflight[:i], c.inflight[i+1:]...)
					break
				}
			}
		}
		c.mu.Unlock()
	}
	c.mu.Lock()
	closed, dead := c.closed, c.dead
	c.mu.Unlock()
	switch {
	case closed:
		return nil, ErrClosed
	case dead != nil:
		return nil, dead
	}
	return nil, fmt.Errorf("gdbmi: %s: %w", line, err)
}

// WaitStopped returns the oldest *stopped event not yet returned by
// WaitStopped, waiting for one if there is none. The execution helpers
// (Run, Continue, Next, Step, Finish, Attach) and the same commands sent
// through Exec (-exec-run, -exec-continue, -exec-next, -exec-step,
// -exec-finish, -exec-until, -exec-jump, -exec-next-instruction,
// -exec-step-instruction, -target-attach) discard stops nobody waited for
// before they start the program, so WaitStopped after one of them returns
// the stop it caused. (CLI commands sent through Console do not.) It
// returns [ErrClosed] once Close began (at once, for a call waiting then),
// an [*ExitedError] if gdb is gone and ctx's error if ctx ends first.
func (c *Client) WaitStopped(ctx context.Context) (*StoppedEvent, error) {
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return nil, ErrClosed
		}
		if len(c.stops) > 0 {
			st := c.stops[0]
			c.stops[0] = nil
			c.stops = c.stops[1:]
			c.mu.Unlock()
			return st, nil
		}
		if c.dead != nil {
			err := c.dead
			c.mu.Unlock()
			return nil, err
		}
		wake := c.stopWake
		c.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, fmt.Errorf("gdbmi: wait for a stop: %w", ctx.Err())
		}
	}
}

func (c *Client) discardStops() {
	c.mu.Lock()
	clear(c.stops)
	c.stops = c.stops[:0]
	c.mu.Unlock()
}

// waitPrompt waits for the first prompt after gdb started.
func (c *Client) waitPrompt(ctx context.Context) error {
	for {
		c.mu.Lock()
		if c.prompts > 0 {
			c.mu.Unlock()
			return nil
		}
		if c.closed {
			c.mu.Unlock()
			return ErrClosed
		}
		if c.dead != nil {
			err := c.dead
			c.mu.Unlock()
			return err
		}
		wake := c.promptWake
		c.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (c *Client) noiseText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.noise, "\n")
}
