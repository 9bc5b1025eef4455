package main

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// Each result carries its payload (the output, the screen) once; see
// docs/mcp.md "What the model receives".
//
// Structured form (the default): structuredContent holds every field
// (delta, initialOutput, text, screen rows, ...) and the text content only
// the one-line headline of the rendering ("[prompt; command exit code 0;
// session running]"). Hosts that pass structured content to the model
// (Claude Code, VS Code) show the payload once; the MCP TypeScript client
// validates it against the tool's output schema.
//
// Text form (--text-results): the text content holds the whole rendering
// and there is neither structured content nor an output schema, for hosts
// that show the model only a result's text.

// mcpTool is the MCP definition of a tool. Output schemas are served
// without their annotations (descriptions), which no model reads and which
// made up most of the tool list; the text form serves none.
func mcpTool(d tools.Definition, textResults bool) *mcp.Tool {
	t := &mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema}
	if !textResults && len(d.OutputSchema) > 0 {
		t.OutputSchema = tools.CompactSchema(d.OutputSchema)
	}
	return t
}

// mcpResult is the MCP result of a successful call.
func mcpResult(res tools.Result, textResults bool) *mcp.CallToolResult {
	if textResults || res.Structured == nil {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Text}}}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: tools.Headline(res.Text)}},
		StructuredContent: res.Structured,
	}
}
