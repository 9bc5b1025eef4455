package gdbmi

import "context"

// ReadOption chooses the thread and frame a read helper looks at
// ([Client.StackFrames], [Client.Variables], [Client.Locals],
// [Client.Arguments], [Client.Evaluate], [Client.VarCreate]). Without
// options a helper reads gdb's selected thread and frame. The options
// become gdb's --thread and --frame, which apply to that one command:
// gdb's selected thread and frame stay as they were.
type ReadOption func(*readScope)

type readScope struct {
	thread   ThreadID
	frame    FrameLevel
	hasFrame bool
}

// InThread reads thread id instead of the selected thread (its innermost
// frame, unless [InFrame] says otherwise).
func InThread(id ThreadID) ReadOption {
	return func(s *readScope) { s.thread = id }
}

// InFrame reads the frame at level (0 is the innermost) of the selected
// thread, or of the [InThread] thread.
func InFrame(level FrameLevel) ReadOption {
	return func(s *readScope) { s.frame, s.hasFrame = level, true }
}

// scopeArgs returns the --thread and --frame options for opts (they go
// right after the command name), then args. gdb refuses --frame without
// --thread: a frame of the selected thread names that thread, asked from
// gdb (-thread-list-ids).
func (c *Client) scopeArgs(ctx context.Context, opts []ReadOption, args ...string) ([]string, error) {
	var s readScope
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	if s.hasFrame && s.thread <= 0 {
		id, err := c.SelectedThread(ctx)
		if err != nil {
			return nil, err
		}
		s.thread = id
	}
	var out []string
	if s.thread > 0 {
		out = append(out, "--thread", s.thread.String())
	}
	if s.hasFrame {
		out = append(out, "--frame", s.frame.String())
	}
	return append(out, args...), nil
}

// execIn runs command with the --thread/--frame options of opts before
// args.
func (c *Client) execIn(ctx context.Context, opts []ReadOption, command string, args ...string) (*Result, error) {
	all, err := c.scopeArgs(ctx, opts, args...)
	if err != nil {
		return nil, err
	}
	return c.Exec(ctx, command, all...)
}

// SelectedThread returns gdb's selected thread (-thread-list-ids); 0 when
// there is none (no program).
func (c *Client) SelectedThread(ctx context.Context) (ThreadID, error) {
	res, err := c.Exec(ctx, "-thread-list-ids")
	if err != nil {
		return 0, err
	}
	var out struct {
		Current ThreadID `mi:"current-thread-id"`
	}
	if err := res.Decode(&out); err != nil {
		return 0, err
	}
	return out.Current, nil
}

// SelectedFrame returns gdb's selected frame of the selected thread
// (-stack-info-frame).
func (c *Client) SelectedFrame(ctx context.Context) (*Frame, error) {
	res, err := c.Exec(ctx, "-stack-info-frame")
	if err != nil {
		return nil, err
	}
	var out struct {
		Frame Frame `mi:"frame"`
	}
	if err := res.Decode(&out); err != nil {
		return nil, err
	}
	return &out.Frame, nil
}

// SelectFrame makes the frame at level the selected frame of the selected
// thread (-stack-select-frame).
func (c *Client) SelectFrame(ctx context.Context, level FrameLevel) error {
	_, err := c.Exec(ctx, "-stack-select-frame", level.String())
	return err
}
