package jobtools

import (
	"encoding/json"
	"errors"
	"strings"
)

// decodeArgs decodes args into dst (a pointer to a struct with json tags),
// rejecting unknown fields, wrong types and trailing data with an
// INVALID_ARGUMENT error naming the field. Empty args and null are {}.
func decodeArgs(args json.RawMessage, dst any) error {
	if t := strings.TrimSpace(string(args)); t == "" || t == "null" {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(strings.NewReader(string(args)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && te.Field != "":
			return invalidArg(te.Field, "want %s, got JSON %s", te.Type.String(), te.Value)
		case errors.As(err, &te):
			return invalidArg("", "arguments: want a JSON object, got JSON %s", te.Value)
		case errors.As(err, &se):
			return invalidArg("", "arguments: malformed JSON: %v", err)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return invalidArg(strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`), "unknown field")
		}
		return invalidArg("", "arguments: %v", err)
	}
	if dec.More() {
		return invalidArg("", "arguments: data after the JSON object")
	}
	return nil
}

// requireID checks a job id argument.
func requireID(id string) error {
	if id == "" {
		return invalidArg("id", "required: the job id bg_launch returned")
	}
	return nil
}
