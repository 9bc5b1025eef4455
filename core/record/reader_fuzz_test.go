package record

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReader: any input is read to its end or refused with an error,
// never a panic, and every event it returns has a valid time and code.
func FuzzReader(f *testing.F) {
	f.Add([]byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.1, \"o\", \"hi\\r\\n\"]\n[0.2, \"r\", \"100x30\"]\n[0.3, \"m\", \"prompt\"]\n"))
	f.Add([]byte("{\"version\": 3}\n"))
	f.Add([]byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[1e309, \"o\", \"x\"]\n"))
	f.Add([]byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[1, \"o\"]\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		for range 10000 {
			ev, err := r.Next()
			if errors.Is(err, io.EOF) || err != nil {
				return
			}
			if ev.Time < 0 || ev.Code == "" {
				t.Fatalf("bad event %+v", ev)
			}
			if ev.Code == "r" {
				_, _, _ = ParseSize(ev.Data)
			}
		}
	})
}
