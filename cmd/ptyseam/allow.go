package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// allowlist maps each program a deployer allowed (as written in --allow)
// to the absolute path it resolved to when the server started.
type allowlist map[string]string

// resolveAllowlist resolves every --allow entry once, at start: a bare
// name through the server's PATH, a path as given (it must be absolute).
// Resolving at start means neither a request's environment nor a file a
// client creates later changes which executable an entry names.
func resolveAllowlist(entries []string) (allowlist, error) {
	al := make(allowlist, len(entries))
	for _, e := range entries {
		if strings.ContainsRune(e, '/') && !filepath.IsAbs(e) {
			return nil, fmt.Errorf("--allow %q: give a bare name or an absolute path", e)
		}
		p, err := exec.LookPath(e)
		if err != nil {
			return nil, fmt.Errorf("--allow %q: %w", e, err)
		}
		if p, err = filepath.Abs(p); err != nil {
			return nil, fmt.Errorf("--allow %q: %w", e, err)
		}
		al[e] = p
	}
	return al, nil
}

// names lists the entries as the deployer wrote them, sorted.
func (al allowlist) names() []string {
	n := make([]string, 0, len(al))
	for k := range al {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// lookup returns the resolved path of program, which must be an entry as
// written or the path an entry resolved to. Nothing else matches: not a
// base name of another path (/tmp/x/python3), not a relative path.
func (al allowlist) lookup(program string) (string, bool) {
	if p, ok := al[program]; ok {
		return p, true
	}
	for _, p := range al {
		if p == program {
			return p, true
		}
	}
	return "", false
}

// allowlisted wraps pty_open (whose sessions run on the exec backend, see
// newToolServer) so that only allowlisted programs start, directly as
// argv with no shell around them. The command is split with
// ptysession.SplitCommand; its first word must name an entry and is
// replaced by the entry's resolved path. An empty command and a client
// environment are refused.
func allowlisted(t tools.Tool, al allowlist) tools.Tool {
	inner := t.Handler
	list := strings.Join(al.names(), ", ")
	t.Description += " On this server only these programs may be opened, each run directly (no shell: quotes group words, " +
		"nothing is expanded, ; | && $() are plain arguments) and the session ends when the program exits: " + list + "."
	refuse := func(msg string) (tools.Result, error) {
		return tools.Result{}, &tools.ToolError{
			Code:    string(core.CodeInvalidArgument),
			Message: msg,
			Hint:    "Open one of: " + list + ", with its arguments (for example \"" + al.names()[0] + " ...\").",
		}
	}
	t.Handler = func(ctx context.Context, owner *core.Owner, args json.RawMessage, progress func(tools.ProgressUpdate)) (tools.Result, error) {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(args, &fields); err != nil {
			return inner(ctx, owner, args, progress) // the inner decoder reports it
		}
		var command string
		if raw, ok := fields["command"]; ok {
			if err := json.Unmarshal(raw, &command); err != nil {
				return inner(ctx, owner, args, progress)
			}
		}
		if env, ok := fields["env"]; ok && !isEmptyJSON(env) {
			return refuse("env is not accepted on this server: under an allowlist the environment could change what an allowed program loads (LD_PRELOAD, PYTHONPATH, GCONV_PATH)")
		}
		words, err := ptysession.SplitCommand(command)
		if err != nil {
			return tools.Result{}, tools.InvalidArgument("command", "%v", err)
		}
		if len(words) == 0 {
			return refuse("command is empty: this server runs no shell, name an allowed program")
		}
		path, ok := al.lookup(words[0])
		if !ok {
			return refuse("command " + words[0] + " is not in this server's allowlist")
		}
		words[0] = path
		cmd, _ := json.Marshal(ptysession.JoinCommand(words))
		fields["command"] = cmd
		rewritten, _ := json.Marshal(fields)
		return inner(ctx, owner, rewritten, progress)
	}
	return t
}

// isEmptyJSON reports whether raw is null or an empty object.
func isEmptyJSON(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	if s == "null" {
		return true
	}
	var m map[string]any
	return json.Unmarshal(raw, &m) == nil && len(m) == 0
}
