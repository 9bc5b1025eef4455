package record

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// FuzzOutputChunks: output arriving in any chunks (cut inside characters,
// longer than an event) is recorded as events whose data, joined, is the
// output as encoding/json would encode it whole.
func FuzzOutputChunks(f *testing.F) {
	f.Add([]byte("héllo 中文 \x1b[0m\r\n"), []byte{1, 2, 3})
	f.Add([]byte("\xe4\xb8\xad\xe4\xb8"), []byte{4})
	f.Add([]byte("\xff\xfe\xe2\x82A"), []byte{3, 1})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var file bytes.Buffer
		file.WriteString("{\"version\": 2, \"width\": 80, \"height\": 24}\n")
		x := &rec{w: &file, start: time.Now(), max: 1 << 40}
		rest := data
		for _, c := range cuts {
			n := min(int(c), len(rest))
			x.output(rest[:n], time.Now())
			rest = rest[n:]
		}
		x.output(rest, time.Now())
		if x.ncarry > 0 {
			x.event(time.Now(), "o", nil, x.carry[:x.ncarry])
		}
		if x.flush(); x.err != nil {
			t.Fatal(x.err)
		}
		r, err := NewReader(&file)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%v in %q", err, file.String())
			}
			got += ev.Data
		}
		std, _ := json.Marshal(string(data))
		var want string
		_ = json.Unmarshal(std, &want)
		if got != want {
			t.Fatalf("chunks %v of %q: recorded %q, want %q", cuts, data, got, want)
		}
	})
}
