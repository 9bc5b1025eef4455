package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// allowlisted wraps pty_open so that only commands whose first word (or
// its base name) is in allow may start. An empty command opens the shell
// itself and is always allowed.
func allowlisted(t tools.Tool, allow []string) tools.Tool {
	inner := t.Handler
	t.Description += " Only these commands may be opened here: " + strings.Join(allow, ", ") + "."
	t.Handler = func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(tools.ProgressUpdate)) (tools.Result, error) {
		var req struct {
			Command string `json:"command"`
		}
		_ = json.Unmarshal(args, &req)
		words, err := ptysession.SplitCommand(req.Command)
		if err != nil {
			return tools.Result{}, tools.InvalidArgument("command", "%v", err)
		}
		if len(words) > 0 && !slices.Contains(allow, words[0]) && !slices.Contains(allow, filepath.Base(words[0])) {
			return tools.Result{}, &tools.ToolError{
				Code:    string(core.CodeInvalidArgument),
				Message: "command " + words[0] + " is not in this server's allowlist",
				Hint:    "Open one of: " + strings.Join(allow, ", ") + ".",
			}
		}
		return inner(ctx, owner, args, progress)
	}
	return t
}
