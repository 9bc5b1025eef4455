package gdbmi

import (
	"context"
	"strconv"
)

// VarObject is a gdb variable object: a named handle on an expression that
// gdb re-evaluates on [Client.VarUpdate] and can expand into children
// (struct fields, array elements, what a pointer points to).
type VarObject struct {
	// Name is gdb's name for the object ("var1", a child "var1.corners.0"):
	// what the other Var calls take.
	Name string `mi:"name"`
	// Exp is a child's expression relative to its parent ("corners", "0").
	Exp string `mi:"exp"`
	// NumChild is how many children the object has.
	NumChild int `mi:"numchild"`
	// Value is gdb's rendering ("4", "{...}" for a struct, "[2]" for an
	// array).
	Value string `mi:"value"`
	// Type is the expression's C type.
	Type string `mi:"type"`
	// ThreadID is the thread the object is bound to (0: none).
	ThreadID ThreadID `mi:"thread-id"`
	// HasMore reports that a dynamic (pretty-printed) object has more
	// children than listed.
	HasMore bool `mi:"has_more"`
	// DisplayHint is a pretty-printer's hint for showing the object:
	// "array", "map" (its children alternate keys and values), "string",
	// or "" (none, or a raw object).
	DisplayHint string `mi:"displayhint"`
}

// VarChange is one entry of [Client.VarUpdate]: an object whose value,
// type, scope or children changed.
type VarChange struct {
	Name  string `mi:"name"`
	Value string `mi:"value"`
	// InScope is "true", "false" (the object's frame is gone; its value is
	// stale) or "invalid" (the object no longer means anything: delete it).
	InScope string `mi:"in_scope"`
	// TypeChanged reports a new type (NewType), for example after a
	// dynamic type changed; the object's children are gone then.
	TypeChanged    bool   `mi:"type_changed"`
	NewType        string `mi:"new_type"`
	NewNumChildren *int   `mi:"new_num_children"`
	HasMore        bool   `mi:"has_more"`
}

// VarCreate creates a variable object for expr (-var-create - * expr),
// bound to the selected frame or the one opts name, and returns it.
func (c *Client) VarCreate(ctx context.Context, expr string, opts ...ReadOption) (*VarObject, error) {
	res, err := c.execIn(ctx, opts, "-var-create", "-", "*", expr)
	if err != nil {
		return nil, err
	}
	var v VarObject
	if err := res.Decode(&v); err != nil {
		return nil, err
	}
	return &v, nil
}

// VarChildren lists an object's children with their values
// (-var-list-children --all-values). Children are variable objects too.
func (c *Client) VarChildren(ctx context.Context, name string) ([]VarObject, error) {
	res, err := c.Exec(ctx, "-var-list-children", "--all-values", name)
	if err != nil {
		return nil, err
	}
	var out struct {
		Children []VarObject `mi:"children"`
	}
	if err := res.Decode(&out); err != nil {
		return nil, err
	}
	return out.Children, nil
}

// VarUpdate re-evaluates an object and the children listed so far
// (-var-update --all-values) and returns what changed; name "*" updates
// every object.
func (c *Client) VarUpdate(ctx context.Context, name string) ([]VarChange, error) {
	res, err := c.Exec(ctx, "-var-update", "--all-values", name)
	if err != nil {
		return nil, err
	}
	var out struct {
		Changes []VarChange `mi:"changelist"`
	}
	if err := res.Decode(&out); err != nil {
		return nil, err
	}
	return out.Changes, nil
}

// VarEvaluate returns an object's current value
// (-var-evaluate-expression).
func (c *Client) VarEvaluate(ctx context.Context, name string) (string, error) {
	res, err := c.Exec(ctx, "-var-evaluate-expression", name)
	if err != nil {
		return "", err
	}
	return res.Get("value").Str(), nil
}

// VarDelete deletes an object and its children (-var-delete) and returns
// how many objects were deleted.
func (c *Client) VarDelete(ctx context.Context, name string) (int, error) {
	res, err := c.Exec(ctx, "-var-delete", name)
	if err != nil {
		return 0, err
	}
	n, _ := strconv.Atoi(res.Get("ndeleted").Str())
	return n, nil
}
