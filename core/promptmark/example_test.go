package promptmark_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/core/promptmark"
)

// Reading back the command-end marker a marked shell prints before its
// prompt.
func ExampleParse() {
	m, ok := promptmark.Parse([]byte("133;D;2;line=5;inq=0"))
	fmt.Println(ok, string(m.Kind), m.Exit, m.Line, m.InputPending)
	// Output: true D 2 5 false
}
