package record

import (
	"encoding/json"
	"testing"
)

// FuzzAppendJSONString: the encoding decodes, with encoding/json, to the
// input with invalid UTF-8 replaced, as encoding/json's own encoding does.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[1;31mred\x1b[0m\r\n", "quote \" back \\ tab \t", "é中\xff\xfe", "\u2028\u2029\x7f\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		enc := appendJSONString(nil, s)
		var got string
		if err := json.Unmarshal(enc, &got); err != nil {
			t.Fatalf("%q encodes to invalid JSON %s: %v", s, enc, err)
		}
		std, _ := json.Marshal(string(s))
		var want string
		_ = json.Unmarshal(std, &want)
		if got != want {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}
