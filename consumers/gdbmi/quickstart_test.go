package gdbmi

import (
	"os"
	"strings"
	"testing"
)

// TestQuickStartIsTheExample: docs/gdbmi.md's quick start is quickStart
// in client_example_test.go, and the output it shows is the one Example
// checks, so the page shows a program that is run and checked.
func TestQuickStartIsTheExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/gdbmi.md")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("docs/gdbmi.md is required: %v", err)
		}
		t.Skipf("docs/gdbmi.md not found (a copy of the module outside its repository): %v", err)
	}
	src, err := os.ReadFile("client_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fn, ok := between(string(src), "\nfunc quickStart(", "\n}\n")
	if !ok {
		t.Fatal("client_example_test.go has no func quickStart")
	}
	fn = "func quickStart(" + fn + "\n}\n"
	if !strings.Contains(string(doc), "```go\n"+fn+"```\n") {
		t.Errorf("docs/gdbmi.md does not show quickStart as it is in client_example_test.go:\n%s", fn)
	}
	out, ok := between(string(src), "\t// Output:\n", "\n}\n")
	if !ok {
		t.Fatal("Example has no Output comment")
	}
	var want strings.Builder
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimPrefix(strings.TrimPrefix(l, "\t//"), " ")
		want.WriteString(l + "\n")
	}
	if !strings.Contains(string(doc), "It prints:\n\n```\n"+want.String()+"```\n") {
		t.Errorf("docs/gdbmi.md does not show Example's output:\n%s", want.String())
	}
}

// between returns the text of s after the first from and before the next
// to.
func between(s, from, to string) (string, bool) {
	i := strings.Index(s, from)
	if i < 0 {
		return "", false
	}
	s = s[i+len(from):]
	j := strings.Index(s, to)
	if j < 0 {
		return "", false
	}
	return s[:j], true
}
