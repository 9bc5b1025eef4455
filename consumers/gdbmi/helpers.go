package gdbmi

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// BreakRequest describes a breakpoint for [Client.BreakInsertRequest].
type BreakRequest struct {
	// Location is a gdb location: "main", "file.c:12", "*0x401000".
	Location string
	// Condition is an optional condition expression.
	Condition string
	// Temporary deletes the breakpoint when it is first hit.
	Temporary bool
	// Pending creates the breakpoint even if the location is not known yet
	// (a shared library not loaded).
	Pending bool
	// Disabled creates it disabled.
	Disabled bool
	// Thread restricts it to one thread (0: all threads).
	Thread ThreadID
}

// BreakInsert sets a breakpoint at location and returns it.
func (c *Client) BreakInsert(ctx context.Context, location string) (*Breakpoint, error) {
	return c.BreakInsertRequest(ctx, BreakRequest{Location: location})
}

// BreakInsertRequest sets a breakpoint as req describes and returns it.
func (c *Client) BreakInsertRequest(ctx context.Context, req BreakRequest) (*Breakpoint, error) {
	var args []string
	if req.Temporary {
		args = append(args, "-t")
	}
	if req.Pending {
		args = append(args, "-f")
	}
	if req.Disabled {
		args = append(args, "-d")
	}
	if req.Condition != "" {
		args = append(args, "-c", req.Condition)
	}
	if req.Thread > 0 {
		args = append(args, "-p", req.Thread.String())
	}
	args = append(args, "--", req.Location)
	res, err := c.Exec(ctx, "-break-insert", args...)
	if err != nil {
		return nil, err
	}
	var out struct {
		Bkpt Breakpoint `mi:"bkpt"`
	}
	if err := res.Decode(&out); err != nil {
		return nil, err
	}
	return &out.Bkpt, nil
}

// BreakDelete deletes breakpoints (and watchpoints) by number; with none
// it deletes all.
func (c *Client) BreakDelete(ctx context.Context, numbers ...BreakpointNumber) error {
	args := make([]string, len(numbers))
	for i, n := range numbers {
		args[i] = n.String()
	}
	_, err := c.Exec(ctx, "-break-delete", args...)
	return err
}

// BreakList returns every breakpoint (-break-list).
func (c *Client) BreakList(ctx context.Context) ([]Breakpoint, error) {
	res, err := c.Exec(ctx, "-break-list")
	if err != nil {
		return nil, err
	}
	var out struct {
		Table struct {
			Body []Breakpoint `mi:"body"`
		} `mi:"BreakpointTable"`
	}
	if err := res.Decode(&out); err != nil {
		return nil, err
	}
	return out.Table.Body, nil
}

// execute sends an execution command (Exec discards the stops nobody
// waited for first).
func (c *Client) execute(ctx context.Context, command string, args ...string) error {
	_, err := c.Exec(ctx, command, args...)
	return err
}

// Run starts the program (-exec-run). It returns once gdb reported
// ^running; use [Client.WaitStopped] for the stop.
func (c *Client) Run(ctx context.Context) error { return c.execute(ctx, "-exec-run") }

// Continue resumes the program (-exec-continue).
func (c *Client) Continue(ctx context.Context) error { return c.execute(ctx, "-exec-continue") }

// Next steps over one source line (-exec-next).
func (c *Client) Next(ctx context.Context) error { return c.execute(ctx, "-exec-next") }

// Step steps into one source line (-exec-step).
func (c *Client) Step(ctx context.Context) error { return c.execute(ctx, "-exec-step") }

// Finish runs until the current function returns (-exec-finish).
func (c *Client) Finish(ctx context.Context) error { return c.execute(ctx, "-exec-finish") }

// Interrupt stops the running program: with -exec-interrupt when gdb runs
// in asynchronous mode (the default), otherwise with SIGINT to the
// foreground process group of gdb's terminal. The stop arrives as a
// *stopped event (reason "signal-received", signal SIGINT); use
// [Client.WaitStopped].
func (c *Client) Interrupt(ctx context.Context) error {
	if c.async {
		_, err := c.Exec(ctx, "-exec-interrupt")
		return err
	}
	_, err := c.svc.Signal(ctx, c.owner, c.gdbID, core.SignalRequest{Signal: core.SIGINT})
	return err
}

// StackFrames lists the selected thread's frames (or those of the
// [InThread] thread), innermost first (-stack-list-frames).
func (c *Client) StackFrames(ctx context.Context, opts ...ReadOption) ([]Frame, error) {
	res, err := c.execIn(ctx, opts, "-stack-list-frames")
	if err != nil {
		return nil, err
	}
	var out struct {
		Stack []Frame `mi:"stack"`
	}
	err = res.Decode(&out)
	return out.Stack, err
}

// Variables lists the selected frame's arguments and locals (or those of
// the frame opts name) with their values (-stack-list-variables
// --all-values); Arg tells them apart.
func (c *Client) Variables(ctx context.Context, opts ...ReadOption) ([]Variable, error) {
	res, err := c.execIn(ctx, opts, "-stack-list-variables", "--all-values")
	if err != nil {
		return nil, err
	}
	var out struct {
		Vars []Variable `mi:"variables"`
	}
	err = res.Decode(&out)
	return out.Vars, err
}

// Locals lists the selected frame's local variables (or those of the frame
// opts name) with their values.
func (c *Client) Locals(ctx context.Context, opts ...ReadOption) ([]Variable, error) {
	return c.filterVars(ctx, false, opts)
}

// Arguments lists the selected frame's arguments (or those of the frame
// opts name) with their values.
func (c *Client) Arguments(ctx context.Context, opts ...ReadOption) ([]Variable, error) {
	return c.filterVars(ctx, true, opts)
}

func (c *Client) filterVars(ctx context.Context, args bool, opts []ReadOption) ([]Variable, error) {
	vars, err := c.Variables(ctx, opts...)
	if err != nil {
		return nil, err
	}
	out := vars[:0]
	for _, v := range vars {
		if v.Arg == args {
			out = append(out, v)
		}
	}
	return out, nil
}

// Evaluate evaluates a C expression in the selected frame (or the frame
// opts name) with -data-evaluate-expression and returns gdb's rendering of
// the value. An unknown symbol is an [*MIError].
func (c *Client) Evaluate(ctx context.Context, expr string, opts ...ReadOption) (string, error) {
	res, err := c.execIn(ctx, opts, "-data-evaluate-expression", expr)
	if err != nil {
		return "", err
	}
	return res.Get("value").Str(), nil
}

// Threads describes the program's threads (-thread-info).
func (c *Client) Threads(ctx context.Context) (*ThreadInfo, error) {
	res, err := c.Exec(ctx, "-thread-info")
	if err != nil {
		return nil, err
	}
	var out ThreadInfo
	if err := res.Decode(&out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SelectThread makes thread id the current thread (-thread-select).
func (c *Client) SelectThread(ctx context.Context, id ThreadID) error {
	_, err := c.Exec(ctx, "-thread-select", id.String())
	return err
}
