package core_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// A session's name is display text on one line; a seam refuses any other.
func ExampleValidateName() {
	fmt.Println(core.ValidateName("build"))
	fmt.Println(core.CodeOf(core.ValidateName("two\nlines")))
	// Output:
	// <nil>
	// INVALID_ARGUMENT
}
