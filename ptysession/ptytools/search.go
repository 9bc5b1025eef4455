package ptytools

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// ToolSearch is the name of the search tool.
const ToolSearch = "pty_search"

// SearchTool returns pty_search over s: a regular-expression search of a
// session's retained output, or of a job's that one of sources knows. It
// is not part of Tools; a server adds it.
func SearchTool(s *ptysession.Sessions, sources ...ptysession.WaitSource) tools.Tool {
	jobs := ""
	if len(sources) > 0 {
		jobs = " or background job"
	}
	return tools.Tool{
		Definition: tools.Definition{
			Name:  ToolSearch,
			Title: "Search a session's output",
			Description: "Find the lines of a session's" + jobs + " output that match a regular expression (RE2, like grep -E), " +
				"with their line numbers, oldest first. For an error in a long log: then pty_read start=line reads around it. " +
				"Does not move pty_tail's position. If more is true, call again with from=next.",
			InputSchema:  searchInput(),
			OutputSchema: searchOutput(),
		},
		Handler: tools.Typed(func(ctx context.Context, owner *core.Owner, a searchArgs, _ func(tools.ProgressUpdate)) (tools.Result, error) {
			r, err := s.Search(ctx, owner, a.ID, ptysession.SearchRequest{Pattern: a.Pattern, IgnoreCase: a.IgnoreCase, From: a.From, Limit: a.Limit}, sources...)
			return ptyResult(r, err, func(r ptysession.SearchResult) string { return ptysession.RenderSearch(a.Pattern, r) })
		}),
	}
}

type searchArgs struct {
	ID         string `json:"id" jsonschema:"sessionId or job id."`
	Pattern    string `json:"pattern" jsonschema:"Regular expression (RE2)."`
	IgnoreCase bool   `json:"ignoreCase,omitempty" jsonschema:"Match case-insensitively."`
	From       int64  `json:"from,omitempty" jsonschema:"First line searched (default 0)."`
	Limit      int    `json:"limit,omitempty" jsonschema:"Most matches (default 50)."`
}

var (
	searchInput = lazySchemaOf[searchArgs](tools.NonEmpty("id"), tools.Length("pattern", 1, ptysession.MaxSearchPattern),
		tools.AtLeast("from", 0), tools.Range("limit", 0, ptysession.MaxSearchLimit))
	searchOutput = lazySchemaOf[ptysession.SearchResult]()
)
