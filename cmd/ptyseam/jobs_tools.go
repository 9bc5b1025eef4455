package main

import (
	"context"
	"encoding/json"

	"github.com/ptyseam/ptyseam/consumers/jobs/jobtools"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// fromJobTool adapts a bg_* tool (the jobs layer keeps its own small tool
// types so that it depends on core alone) to the dispatcher's.
func fromJobTool(t jobtools.Tool) tools.Tool {
	h := t.Handler
	return tools.Tool{
		Definition: tools.Definition{
			Name:         t.Name,
			Title:        t.Title,
			Description:  t.Description,
			InputSchema:  t.InputSchema,
			OutputSchema: t.OutputSchema,
		},
		Handler: func(ctx context.Context, owner *core.Owner, args json.RawMessage, _ func(tools.ProgressUpdate)) (tools.Result, error) {
			res, err := h(ctx, owner, args)
			if err != nil {
				if je, ok := err.(*jobtools.ToolError); ok {
					return tools.Result{}, &tools.ToolError{Code: je.Code, Message: je.Message, Hint: je.Hint, Err: je.Err}
				}
				return tools.Result{}, err
			}
			return tools.Result{Structured: res.Structured, Text: res.Text}, nil
		},
	}
}
