package keys_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/screen/keys"
)

// Save and quit vim: Escape, then ":wq" and Enter.
func ExampleEncode() {
	b, err := keys.Encode([]string{"Escape", ":", "w", "q", "Enter"}, false)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", b)

	// The arrows follow the program's application-cursor mode.
	normal, _ := keys.Encode([]string{"Up", "C-c"}, false)
	app, _ := keys.Encode([]string{"Up", "C-c"}, true)
	fmt.Printf("%q %q\n", normal, app)

	_, err = keys.Encode([]string{"Enter", "Hyper-x"}, false)
	fmt.Println(err)
	// Output:
	// "\x1b:wq\r"
	// "\x1b[A\x03" "\x1bOA\x03"
	// keys: INVALID_ARGUMENT: keys[1]: key "Hyper-x": unknown key name (use a single character, one of Enter, Tab, Backspace, Escape, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, BackTab, F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12, or a combination such as C-c, M-x, C-Up, S-Tab; words and lines are text, typed as they are, not key names)
}
