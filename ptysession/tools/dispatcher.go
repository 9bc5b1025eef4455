package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/ptyseam/ptyseam/core"
)

// Options configure a [Dispatcher].
type Options struct {
	// MaxTextBytes caps Result.Text and error texts (default
	// core.DefaultMaxTextBytes); a longer text is cut in the middle with a
	// marker (see [Bound]).
	MaxTextBytes int
	// MaxStructuredBytes caps the JSON encoding of Result.Structured
	// (default twice MaxTextBytes: the structured form carries the same
	// output as the text, plus JSON escapes). A longer one is cut to the
	// bound with [BoundStructured], keeping its shape, and replaced by the
	// cut encoding (a json.RawMessage).
	MaxStructuredBytes int
	// ValidateOutput checks every structured result against the tool's
	// output schema and turns a mismatch into an INTERNAL error. Tests and
	// new tools turn it on; it costs a marshal and a walk per call.
	ValidateOutput bool
	// EncodeStructured makes Call return every Result.Structured as its
	// JSON encoding (a json.RawMessage), which the dispatcher makes anyway
	// to bound it, instead of the handler's value. A server that sends the
	// result over the wire then does not encode it a second time; the
	// bytes are those encoding/json makes of the value. Off, Structured is
	// the handler's value unless it had to be cut.
	EncodeStructured bool
}

// CallOptions modify one call.
type CallOptions struct {
	// Progress receives progress reports of long calls (nil: dropped).
	Progress func(ProgressUpdate)
}

// Dispatcher holds tools by name and calls them. It is safe for concurrent
// use; tools may be added while calls run.
type Dispatcher struct {
	opts  Options
	mu    sync.RWMutex
	tools map[string]*entry
	order []string
}

type entry struct {
	tool Tool
	in   *checker
	out  *checker // nil: no output schema
}

// NewDispatcher returns a dispatcher holding tools. It fails like
// [Dispatcher.Add] on the first tool that cannot be added.
func NewDispatcher(opts Options, tools ...Tool) (*Dispatcher, error) {
	if opts.MaxTextBytes <= 0 {
		opts.MaxTextBytes = core.DefaultMaxTextBytes
	}
	if opts.MaxStructuredBytes <= 0 {
		opts.MaxStructuredBytes = 2 * opts.MaxTextBytes
	}
	d := &Dispatcher{opts: opts, tools: make(map[string]*entry)}
	for _, t := range tools {
		if err := d.Add(t); err != nil {
			return nil, err
		}
	}
	return d, nil
}

var toolName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Add registers a tool. It fails with INVALID_ARGUMENT for a bad or taken
// name, a missing handler or description, or a schema that does not
// resolve (github.com/google/jsonschema-go), uses references, or whose
// type is not "object".
func (d *Dispatcher) Add(t Tool) error {
	switch {
	case !toolName.MatchString(t.Name):
		return core.Errorf(core.CodeInvalidArgument, "tool name %q must be 1 to 64 characters of [A-Za-z0-9_-]", t.Name)
	case t.Handler == nil:
		return core.Errorf(core.CodeInvalidArgument, "tool %s has no handler", t.Name)
	case strings.TrimSpace(t.Description) == "":
		return core.Errorf(core.CodeInvalidArgument, "tool %s has no description", t.Name)
	}
	in, err := newChecker(t.InputSchema)
	if err != nil {
		return core.Errorf(core.CodeInvalidArgument, "tool %s: input schema: %v", t.Name, err)
	}
	var out *checker
	if len(t.OutputSchema) > 0 {
		if out, err = newChecker(t.OutputSchema); err != nil {
			return core.Errorf(core.CodeInvalidArgument, "tool %s: output schema: %v", t.Name, err)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, taken := d.tools[t.Name]; taken {
		return core.Errorf(core.CodeInvalidArgument, "a tool named %s is registered already", t.Name)
	}
	d.tools[t.Name] = &entry{tool: t, in: in, out: out}
	d.order = append(d.order, t.Name)
	return nil
}

// Definitions returns the definitions of all tools in registration order.
func (d *Dispatcher) Definitions() []Definition {
	d.mu.RLock()
	defer d.mu.RUnlock()
	defs := make([]Definition, 0, len(d.order))
	for _, n := range d.order {
		defs = append(defs, d.tools[n].tool.Definition)
	}
	return defs
}

// Lookup returns the definition of the named tool.
func (d *Dispatcher) Lookup(name string) (Definition, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	e, ok := d.tools[name]
	if !ok {
		return Definition{}, false
	}
	return e.tool.Definition, true
}

// Call runs the named tool with JSON arguments on behalf of owner. Empty
// args and JSON null count as {}. It returns the tool's result with its
// text bounded, or a *ToolError: INVALID_ARGUMENT naming the field for an
// unknown tool, malformed JSON, a missing required field, a wrong type, an
// unknown field or an out-of-range value; the handler's error otherwise
// (with its code; INTERNAL for an error without one, or a handler panic).
func (d *Dispatcher) Call(ctx context.Context, owner *core.Owner, name string, args json.RawMessage, opts CallOptions) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res = Result{}
			err = d.bound(&ToolError{
				Code:    string(core.CodeInternal),
				Message: fmt.Sprintf("tool %s failed: %v", name, p),
				Hint:    genericHints[core.CodeInternal],
				Err:     &core.Error{Code: core.CodeInternal, Msg: "tool handler panicked"},
			})
		}
	}()
	d.mu.RLock()
	e, ok := d.tools[name]
	d.mu.RUnlock()
	if !ok {
		return Result{}, d.bound(&ToolError{
			Code:    string(core.CodeInvalidArgument),
			Message: fmt.Sprintf("unknown tool %q", name),
			Hint:    "Call one of: " + strings.Join(d.names(), ", ") + ".",
			Err:     &core.Error{Code: core.CodeInvalidArgument, Msg: "unknown tool"},
		})
	}
	if owner == nil {
		return Result{}, d.bound(InvalidArgument("", "the call has no owner"))
	}
	if t := strings.TrimSpace(string(args)); t == "" || t == "null" {
		args = json.RawMessage("{}")
	}
	if verr := e.in.validate(args); verr != nil {
		return Result{}, d.bound(argumentError(verr))
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(ProgressUpdate) {}
	}
	res, err = e.tool.Handler(ctx, owner, args, progress)
	if err != nil {
		return Result{}, d.bound(AsToolError(err, ""))
	}
	if e.out != nil && d.opts.ValidateOutput {
		if verr := checkOutput(e.out, res.Structured); verr != nil {
			return Result{}, d.bound(&ToolError{
				Code:    string(core.CodeInternal),
				Message: fmt.Sprintf("tool %s returned a result that breaks its output schema: %v", name, verr),
				Hint:    genericHints[core.CodeInternal],
				Err:     &core.Error{Code: core.CodeInternal, Msg: "output schema mismatch", Err: verr},
			})
		}
	}
	res.Text = Bound(res.Text, d.opts.MaxTextBytes)
	if res.Structured != nil {
		b, cut, berr := BoundStructured(res.Structured, d.opts.MaxStructuredBytes)
		if berr != nil {
			return Result{}, d.bound(&ToolError{
				Code:    string(core.CodeInternal),
				Message: fmt.Sprintf("tool %s returned a structured result that cannot be bounded: %v", name, berr),
				Hint:    genericHints[core.CodeInternal],
				Err:     &core.Error{Code: core.CodeInternal, Msg: "unbounded structured result", Err: berr},
			})
		}
		if cut || d.opts.EncodeStructured {
			res.Structured = b
		}
	}
	return res, nil
}

// CheckInput validates arguments against the named tool's input schema,
// as Call does before it runs the handler: nil, or a *ValidationError
// naming the field, or an error for malformed JSON.
func (d *Dispatcher) CheckInput(name string, args json.RawMessage) error {
	d.mu.RLock()
	e, ok := d.tools[name]
	d.mu.RUnlock()
	if !ok {
		return core.Errorf(core.CodeInvalidArgument, "unknown tool %q", name)
	}
	return e.in.validate(args)
}

func checkOutput(c *checker, structured any) error {
	b, err := json.Marshal(structured)
	if err != nil {
		return err
	}
	return c.validate(b)
}

func (d *Dispatcher) names() []string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	n := append([]string(nil), d.order...)
	sort.Strings(n)
	return n
}

// argumentError turns a validation failure into INVALID_ARGUMENT.
func argumentError(err error) *ToolError {
	var ve *ValidationError
	if errors.As(err, &ve) {
		if ve.Field == "" {
			return InvalidArgument("", "arguments: %s", ve.Msg)
		}
		return InvalidArgument(ve.Field, "%s", ve.Msg)
	}
	return InvalidArgument("", "arguments: %v", err)
}

// bound caps an error's texts like a result's.
func (d *Dispatcher) bound(e *ToolError) *ToolError {
	e.Message = Bound(e.Message, d.opts.MaxTextBytes/2)
	e.Hint = Bound(e.Hint, d.opts.MaxTextBytes/4)
	return e
}

// DecodeArgs decodes validated arguments into dst (a pointer to a struct
// with json tags), rejecting unknown fields. Handlers call it after the
// dispatcher validated args against their input schema; a failure is an
// INVALID_ARGUMENT *ToolError naming the field.
func DecodeArgs(args json.RawMessage, dst any) error {
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
			return InvalidArgument(te.Field, "want %s, got JSON %s", te.Type.String(), te.Value)
		case errors.As(err, &te):
			return InvalidArgument("", "arguments: want a JSON object, got JSON %s", te.Value)
		case errors.As(err, &se):
			return InvalidArgument("", "arguments: malformed JSON: %v", err)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return InvalidArgument(f, "unknown field")
		}
		return InvalidArgument("", "arguments: %v", err)
	}
	if dec.More() {
		return InvalidArgument("", "arguments: data after the JSON object")
	}
	return nil
}
