package tools_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// A tool's input schema is derived from the struct its handler decodes:
// field tags give the descriptions, omitempty the optional fields, and
// options the bounds a Go type cannot say.
func ExampleInferSchema() {
	type tailArgs struct {
		ID    string `json:"id" jsonschema:"The sessionId that pty_open returned."`
		Lines int    `json:"lines,omitempty" jsonschema:"At most this many of the newest lines."`
	}
	doc, err := tools.InferSchema[tailArgs](tools.NonEmpty("id"), tools.Range("lines", 0, 10000))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(doc))
	// Output: {"type":"object","properties":{"id":{"type":"string","description":"The sessionId that pty_open returned.","minLength":1},"lines":{"type":"integer","description":"At most this many of the newest lines.","minimum":0,"maximum":10000}},"required":["id"],"additionalProperties":false}
}
