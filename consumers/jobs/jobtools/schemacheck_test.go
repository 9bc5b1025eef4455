package jobtools

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// checkOutput validates a result's structured value against the tool's
// output schema with an independent draft 2020-12 validator (the one the
// MCP SDK uses).
func checkOutput(def tools.Definition, res tools.Result) error {
	var schema jsonschema.Schema
	if err := json.Unmarshal(def.OutputSchema, &schema); err != nil {
		return err
	}
	rs, err := schema.Resolve(nil)
	if err != nil {
		return err
	}
	b, err := json.Marshal(res.Structured)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return rs.Validate(v)
}
