package tools_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// A server that carries the output in a result's structured content sends
// the rendering's first line as its text.
func ExampleHeadline() {
	fmt.Println(tools.Headline("[prompt; command exit code 0; session exited 0]\nls\nnotes.txt\n"))
	// Output: [prompt; command exit code 0; session exited 0]
}

// CompactSchema drops what only documents a schema and keeps what
// constrains a value.
func ExampleCompactSchema() {
	type result struct {
		N int `json:"n" jsonschema:"How many."`
	}
	doc := tools.MustInferSchema[result](tools.AtLeast("n", 0))
	fmt.Println(string(tools.CompactSchema(doc)))
	// Output: {"additionalProperties":false,"properties":{"n":{"minimum":0,"type":"integer"}},"required":["n"],"type":"object"}
}
