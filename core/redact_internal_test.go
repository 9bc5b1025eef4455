package core

import (
	"strings"
	"testing"
)

// The redactor masks a secret wherever it is printed, also split across
// reads, and holds back only an end that may begin a secret.
func TestRedactorMasksSecretsAcrossReads(t *testing.T) {
	r := &redactor{secrets: [][]byte{[]byte("hunter2"), []byte("hun")}}
	var out strings.Builder
	feed := func(chunks ...string) {
		for _, c := range chunks {
			out.Write(r.filter([]byte(c)))
		}
	}
	feed("a hunter2 b ", "hu", "nt", "er", "2 c hunte", "r3 h")
	if got, want := out.String(), "a "+SecretMask+" b "+SecretMask+" c "+SecretMask+"ter3 "; got != want {
		t.Fatalf("masked %q, want %q", got, want)
	}
	if string(r.held) != "h" {
		t.Fatalf("held %q", r.held)
	}
	out.Write(r.takeHeld())
	if !strings.HasSuffix(out.String(), " h") || r.held != nil {
		t.Fatalf("after the flush %q held %q", out.String(), r.held)
	}
	// A shorter secret held for a longer one is masked when let go.
	if got := string(r.filter([]byte("x hunt"))); got != "x " {
		t.Fatalf("before hunt: %q", got)
	}
	if got := string(r.takeHeld()); got != SecretMask+"t" {
		t.Fatalf("hunt let go: %q", got)
	}
	r.wipe()
	if r.secrets != nil {
		t.Fatal("the secrets outlive wipe")
	}
}
