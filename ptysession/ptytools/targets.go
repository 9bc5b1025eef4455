package ptytools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// TargetedOpen returns pty_open (tool, as Tools built it) with a
// "target" argument naming one of s's configured targets, described to the
// model by name and Description. Without targets it returns tool as is.
func TargetedOpen(s *ptysession.Sessions, tool tools.Tool) tools.Tool {
	if len(s.Options().Targets) == 0 {
		return tool
	}
	var schema map[string]any
	if err := json.Unmarshal(tool.Definition.InputSchema, &schema); err != nil {
		panic(fmt.Sprintf("ptysession: pty_open's input schema: %v", err))
	}
	props, _ := schema["properties"].(map[string]any)
	if props == nil {
		panic("ptysession: pty_open's input schema has no properties")
	}
	var desc strings.Builder
	desc.WriteString("Open the shell on this remote host instead of locally (omit for a local session). The server holds the credentials. Hosts:")
	for _, n := range s.TargetNames() {
		desc.WriteString(" " + n)
		if d := s.Options().Targets[n].Description; d != "" {
			desc.WriteString(" (" + d + ")")
		}
		desc.WriteString(";")
	}
	props["target"] = map[string]any{"type": "string", "enum": s.TargetNames(), "description": strings.TrimSuffix(desc.String(), ";") + "."}
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("ptysession: pty_open's input schema: %v", err))
	}
	tool.Definition.InputSchema = raw
	tool.Definition.Description += " With target, the session is a shell on that remote host (same tools, same semantics; " +
		"pty_signal reaches the remote foreground job, pty_close ends the remote shell)."
	tool.Handler = tools.Typed(func(ctx context.Context, owner *core.Owner, a struct {
		openArgs
		Target string `json:"target"`
	}, _ func(tools.ProgressUpdate)) (tools.Result, error) {
		req := a.request()
		req.Target = a.Target
		r, err := s.Open(ctx, owner, req)
		return ptyResult(r, err, ptysession.RenderOpen)
	})
	return tool
}
