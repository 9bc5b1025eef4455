package ptysession_test

import (
	"os"
	"strings"
	"testing"
)

// TestDocAdapterIsTheExample: the adapter docs/ptysession.md shows is the
// code of Example_adapter, which go test compiles and runs, so the page
// cannot show an adapter that does not compile.
func TestDocAdapterIsTheExample(t *testing.T) {
	if _, err := os.Stat("../go.work"); err != nil {
		t.Skip("outside the repository (a module copy has no docs/)")
	}
	doc, err := os.ReadFile("../docs/ptysession.md")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(doc), "## A toolkit adapter")
	if i < 0 {
		t.Fatal("docs/ptysession.md has no section \"A toolkit adapter\"")
	}
	section := string(doc[i:])
	_, block, ok := strings.Cut(section, "```go\n")
	block, _, ok2 := strings.Cut(block, "```\n")
	if !ok || !ok2 {
		t.Fatal("the adapter section has no Go block")
	}
	src, err := os.ReadFile("adapter_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), block) {
		t.Fatalf("the adapter in docs/ptysession.md is not Example_adapter's code:\n%s", block)
	}
	if !strings.Contains(block, "func (ad Adapter) Call(") || strings.Count(block, "case \"terminal_") != 4 {
		t.Fatalf("the block is not the adapter with its four tools:\n%s", block)
	}
}
