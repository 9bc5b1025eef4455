package escape_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/consumers/jobs/escape"
)

func ExampleDecode() {
	fmt.Printf("%q\n", escape.Decode(`rs\n`))
	fmt.Printf("%q\n", escape.Decode(`\x03\cC\c?`))
	fmt.Printf("%q\n", escape.Decode(`\q stays`))
	// Output:
	// "rs\n"
	// "\x03\x03\x7f"
	// "\\q stays"
}

func ExampleDescribe() {
	fmt.Println(escape.Describe([]byte("\x1b[A\x03ok\n")))
	// Output: \e[A\x03ok\n
}
