package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// BoundStructured returns v encoded as JSON in at most limit bytes, keeping
// its shape so that it still matches the tool's output schema: every
// object keeps its keys and every value its type. When the encoding is
// longer, the longest strings are cut first, all to one common length,
// with [Bound]'s marker in the middle; if that is not enough, the longest
// arrays lose their last elements, again to one common length. It reports
// whether anything was cut. An encoding that cannot be brought under limit
// (more keys than fit) is an error. limit <= 0 means no bound.
func BoundStructured(v any, limit int) (json.RawMessage, bool, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, false, err
	}
	if limit <= 0 || len(raw) <= limit {
		return raw, false, nil
	}
	var tree any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return nil, false, err
	}
	longestString, longestArray := 0, 0
	walk(tree, func(s string) { longestString = max(longestString, len(s)) }, func(a []any) { longestArray = max(longestArray, len(a)) })

	// The largest common string length that fits, found by bisection.
	if out, ok := fitBy(longestString, func(n int) any { return cutStrings(tree, n) }, limit); ok {
		return out, true, nil
	}
	// Strings cut to nothing are not enough: shorten arrays too.
	stringsCut := cutStrings(tree, 0)
	if out, ok := fitBy(longestArray, func(n int) any { return cutArrays(stringsCut, n) }, limit); ok {
		return out, true, nil
	}
	return nil, true, fmt.Errorf("the structured result needs more than %d bytes even with every string and array emptied", limit)
}

// fitBy finds the largest n in [0, hi] for which shrink(n) encodes in at
// most limit bytes (the size grows with n).
func fitBy(hi int, shrink func(int) any, limit int) (json.RawMessage, bool) {
	enc := func(n int) json.RawMessage {
		b, err := json.Marshal(shrink(n))
		if err != nil {
			return nil
		}
		return b
	}
	best := enc(0)
	if best == nil || len(best) > limit {
		return nil, false
	}
	i := sort.Search(hi+1, func(n int) bool { b := enc(n); return b == nil || len(b) > limit }) // first n that does not fit
	if i > 0 {
		best = enc(i - 1)
	}
	return best, true
}

func walk(v any, str func(string), arr func([]any)) {
	switch x := v.(type) {
	case string:
		str(x)
	case []any:
		arr(x)
		for _, e := range x {
			walk(e, str, arr)
		}
	case map[string]any:
		for _, e := range x {
			walk(e, str, arr)
		}
	}
}

// cutStrings returns a copy of v with every string longer than n cut to n
// bytes with Bound (a string too short for the marker keeps its end).
func cutStrings(v any, n int) any {
	return rebuild(v, func(s string) string {
		switch {
		case len(s) <= n:
			return s
		case n == 0:
			return ""
		}
		return Bound(s, n)
	}, func(a []any) []any { return a })
}

// cutArrays returns a copy of v with every array longer than n cut to its
// first n elements.
func cutArrays(v any, n int) any {
	return rebuild(v, func(s string) string { return s }, func(a []any) []any { return a[:min(len(a), n)] })
}

// rebuild returns a copy of the decoded JSON tree v with str applied to
// every string and arr to every array (before its elements are rebuilt).
func rebuild(v any, str func(string) string, arr func([]any) []any) any {
	switch x := v.(type) {
	case string:
		return str(x)
	case []any:
		x = arr(x)
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = rebuild(e, str, arr)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = rebuild(e, str, arr)
		}
		return out
	}
	return v
}
