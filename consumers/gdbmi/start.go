package gdbmi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// gdbScript runs on gdb's terminal before gdb: it turns echo off (gdb would
// otherwise see every command echoed into its output) and canonical mode
// off (the terminal would cut command lines at 4095 bytes), then waits for
// the client's go-ahead line, so that the client's tap is attached before
// gdb prints its first byte.
const gdbScript = `stty -echo -icanon min 1 time 0 && IFS= read -r _ && exec "$0" "$@"`

var errNoMI3 = errors.New("gdb does not know the mi3 interpreter")

// Start starts gdb on a ptyseam session of svc and returns a ready client:
// gdb runs with terminal echo off, in MI3 (or MI2 where gdb lacks MI3), with
// asynchronous execution on, and the debugged program gets a terminal of
// its own (a second session, see [Client.ProgramSession]), so its output
// never enters the MI stream. ctx bounds the start only. svc needs a
// backend of type "exec" (core/localpty). On failure nothing is left
// running and the error is a [*StartError].
func Start(ctx context.Context, svc Service, opts Options) (*Client, error) {
	if opts.Owner == nil {
		opts.Owner = core.NewOwner("gdbmi")
	}
	if opts.GDB == "" {
		opts.GDB = "gdb"
	}
	if opts.Charset == "" {
		opts.Charset = "UTF-8"
	}
	if opts.EventBuffer <= 0 {
		opts.EventBuffer = 4096
	}
	versions := []string{"mi3", "mi2"}
	switch opts.Interpreter {
	case "":
	case "mi3", "mi2":
		versions = []string{opts.Interpreter}
	default:
		return nil, &StartError{Step: "options", Err: fmt.Errorf("unknown interpreter %q (want mi3 or mi2)", opts.Interpreter)}
	}
	if err := checkArgs(opts.Args); err != nil {
		return nil, &StartError{Step: "options", Err: err}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, startTimeout)
		defer cancel()
	}
	progID, pts, err := openProgramTTY(ctx, svc, opts)
	if err != nil {
		return nil, err
	}
	// The program's output is watched from before gdb starts, so that
	// WaitProgramOutput sees all of it.
	progTap, err := svc.Tap(opts.Owner, progID)
	if err != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		_, _ = svc.Close(cctx, opts.Owner, progID, "gdbmi: start failed")
		cancel()
		return nil, &StartError{Step: "program terminal", Err: err}
	}
	progOut := watchOutput(progTap)
	for _, mi := range versions {
		c := newClient(svc, opts, progID, pts, progOut)
		err = c.launch(ctx, mi)
		if err == nil {
			return c, nil
		}
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		_ = c.shutdown(cctx, false)
		cancel()
		if !errors.Is(err, errNoMI3) {
			break
		}
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	_, _ = svc.Close(cctx, opts.Owner, progID, "gdbmi: start failed")
	cancel()
	progOut.stop()
	return nil, err
}

// launch starts gdb with interpreter mi and sets it up.
func (c *Client) launch(ctx context.Context, mi string) error {
	c.mi = mi
	argv := append([]string{"sh", "-c", gdbScript, c.opts.GDB, "-q", "-nx", "-i=" + mi}, c.opts.GDBArgs...)
	res, err := c.svc.Spawn(ctx, c.owner, core.SpawnRequest{
		Type:          "exec",
		Name:          "",
		Command:       argv,
		Dir:           c.opts.Dir,
		Env:           gdbEnv(c.opts.Env),
		NoInitialWait: true,
	})
	if err != nil {
		return &StartError{Step: "spawn gdb", Err: err}
	}
	c.gdbID = res.ID
	tap, err := c.svc.Tap(c.owner, c.gdbID)
	if err != nil {
		return &StartError{Step: "tap gdb's output", Err: err}
	}
	c.tap = tap
	rctx, cancel := context.WithCancel(context.Background())
	c.cancelRead = cancel
	go c.readLoop(rctx)
	if _, err := c.svc.Write(ctx, c.owner, c.gdbID, []byte("\n")); err != nil {
		return &StartError{Step: "start gdb", Err: err}
	}
	if err := c.waitPrompt(ctx); err != nil {
		out := c.noiseText()
		if errors.Is(err, ErrExited) && mi == "mi3" && strings.Contains(out, "mi3") {
			return &StartError{Step: "start gdb", Output: out, Err: errNoMI3}
		}
		return &StartError{Step: "start gdb", Output: out, Err: err}
	}
	if err := c.setup(ctx); err != nil {
		return &StartError{Step: "set up", Output: c.noiseText(), Err: err}
	}
	return nil
}

func (c *Client) setup(ctx context.Context) error {
	if _, err := c.Exec(ctx, "-gdb-set", "mi-async", "on"); err == nil {
		c.async = true
	} else if _, err2 := c.Exec(ctx, "-gdb-set", "target-async", "on"); err2 == nil {
		c.async = true
	} else if errors.Is(err, ErrExited) {
		return err
	}
	steps := [][]string{
		{"-gdb-set", "pagination", "off"},
		{"-gdb-set", "confirm", "off"},
		{"-inferior-tty-set", c.pts},
	}
	if c.opts.SoftwareWatchpoints {
		steps = append(steps, []string{"-gdb-set", "can-use-hw-watchpoints", "0"})
	}
	if c.opts.Charset != "-" {
		steps = append(steps, []string{"-gdb-set", "charset", c.opts.Charset})
	}
	if c.opts.Program != "" {
		steps = append(steps, []string{"-file-exec-and-symbols", c.opts.Program})
	}
	if !c.opts.RawVarObjects {
		// A gdb without Python accepts it and prints values raw.
		steps = append(steps, []string{"-enable-pretty-printing"})
	}
	// gdb starts the program through $SHELL (now /bin/sh, see
	// startupShell); the program gets the caller's SHELL back.
	if sh, ok := programShell(c.opts.Env); ok && !strings.ContainsAny(sh, "\r\n") {
		steps = append(steps, []string{"-interpreter-exec", "console", "set environment SHELL=" + sh})
	} else {
		steps = append(steps, []string{"-interpreter-exec", "console", "unset environment SHELL"})
	}
	if len(c.opts.Args) > 0 {
		steps = append(steps, setArgsCommand(c.opts.Args))
	}
	for _, s := range steps {
		if _, err := c.Exec(ctx, s[0], s[1:]...); err != nil {
			return err
		}
	}
	return nil
}

// openProgramTTY opens the session whose terminal the program will use and
// returns its id and terminal path.
//
// The session's process only holds the terminal open (sleep, which prints
// nothing and opens nothing). It runs without the terminal as its
// controlling terminal (localpty.SpawnOptions.NoControllingTerminal): gdb
// starts the program in a new session and makes the terminal its
// controlling terminal (setsid and TIOCSCTTY, what gdb does for an
// inferior-tty), which the kernel refuses while another session owns it.
// The terminal's path is read from the holder's standard input in /proc,
// so nothing is printed on it.
func openProgramTTY(ctx context.Context, svc Service, opts Options) (core.SessionID, string, error) {
	res, err := svc.Spawn(ctx, opts.Owner, core.SpawnRequest{
		Type:          "exec",
		Command:       []string{"sleep", "2147483647"},
		Dir:           opts.Dir,
		NoInitialWait: true,
		Options:       localpty.SpawnOptions{NoControllingTerminal: true},
	})
	if err != nil {
		return "", "", &StartError{Step: "program terminal", Err: err}
	}
	id := res.ID
	fail := func(err error) (core.SessionID, string, error) {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		_, _ = svc.Close(cctx, opts.Owner, id, "gdbmi: start failed")
		cancel()
		return "", "", &StartError{Step: "program terminal", Err: err}
	}
	info, err := svc.Info(opts.Owner, id)
	if err != nil {
		return fail(err)
	}
	if info.PID <= 0 {
		return fail(fmt.Errorf("the terminal's holder has no local process id"))
	}
	pts, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", info.PID))
	if err != nil {
		return fail(fmt.Errorf("the terminal's path: %w", err))
	}
	if !strings.HasPrefix(pts, "/dev/") {
		return fail(fmt.Errorf("the terminal's holder reads %q, not a terminal", pts))
	}
	return id, pts, nil
}
