package main

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// Each result carries its payload (the output, the screen) once; see
// docs/mcp.md "What the model receives".
//
// Text form (the default): the text content holds the whole rendering
// (the headline, then the output or the screen) and there is neither
// structured content nor an output schema. Every host shows its model a
// result's text when there is no structured content.
//
// Structured form (--structured-results): structuredContent holds every
// field (delta, initialOutput, text, screen rows, ...) and the text
// content only the one-line headline of the rendering ("[prompt; command
// exit code 0]"), for programs that read the fields; the MCP TypeScript
// client validates them against the tool's output schema. Hosts that pass
// structured content to the model (Claude Code, VS Code) drop the text;
// hosts that pass the text (Claude.ai, ChatGPT) would show only the
// headline.

// mcpTool is the MCP definition of a tool. Output schemas are served
// without their annotations (descriptions), which no model reads and which
// made up most of the tool list; the text form serves none. A small list
// (the core and standard profiles) serves no output schemas and lists the
// input schemas without "additionalProperties": false; the dispatcher
// still refuses an argument the tool does not take.
func mcpTool(d tools.Definition, structured, small bool) *mcp.Tool {
	t := &mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema}
	if small {
		t.InputSchema = openObjects(d.InputSchema)
	}
	if structured && !small && len(d.OutputSchema) > 0 {
		t.OutputSchema = tools.CompactSchema(d.OutputSchema)
	}
	return t
}

// openObjects returns schema without its "additionalProperties": false
// keywords, or schema itself if it does not decode.
func openObjects(schema json.RawMessage) json.RawMessage {
	var v any
	if err := json.Unmarshal(schema, &v); err != nil {
		return schema
	}
	out, err := json.Marshal(dropClosed(v))
	if err != nil {
		return schema
	}
	return out
}

// dropClosed removes "additionalProperties": false from v and every value
// in it.
func dropClosed(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if closed, ok := v["additionalProperties"].(bool); ok && !closed {
			delete(v, "additionalProperties")
		}
		for k, x := range v {
			v[k] = dropClosed(x)
		}
	case []any:
		for i, x := range v {
			v[i] = dropClosed(x)
		}
	}
	return v
}

// mcpResult is the MCP result of a successful call.
func mcpResult(res tools.Result, structured bool) *mcp.CallToolResult {
	if !structured || res.Structured == nil {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Text}}}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: tools.Headline(res.Text)}},
		StructuredContent: res.Structured,
	}
}
