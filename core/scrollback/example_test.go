package scrollback_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

// A progress bar redrawn with "\r" leaves one line, and a prompt without a
// newline is visible at once.
func Example() {
	b := scrollback.New(scrollback.Limits{})
	fmt.Fprint(b, "\x1b]0;user@host: ~\x07downloading\r\n")
	for pct := 0; pct <= 100; pct += 25 {
		fmt.Fprintf(b, "\r\x1b[K[%-4s] %3d%%", "####"[:pct/25], pct)
	}
	fmt.Fprint(b, "\r\n\x1b[?2004huser@host:~$ \x1b]133;B\x07")

	pg := b.Page(scrollback.PageRequest{Newest: true, Count: 10}, 0)
	for _, l := range pg.Lines {
		fmt.Printf("%q\n", l)
	}
	fmt.Println("partial:", pg.Partial, "at prompt:", b.Marks().TextSincePromptEnd == 0)
	// Output:
	// "downloading"
	// "[####] 100%"
	// "user@host:~$ "
	// partial: true at prompt: true
}

// A cursor returns only what is new, continuing the partial line.
func ExampleCursor_Next() {
	b := scrollback.New(scrollback.Limits{})
	read := func(r scrollback.PageRequest) (scrollback.Page, error) { return b.Page(r, 0), nil }
	c := b.End()

	fmt.Fprint(b, ">>> ")
	d, _ := c.Next(read, 100, 64<<10)
	fmt.Printf("%q\n", d.Text)

	fmt.Fprint(b, "1+1\r\n2\r\n>>> ")
	d, _ = c.Next(read, 100, 64<<10)
	fmt.Printf("%q\n", d.Text)
	// Output:
	// ">>> "
	// "1+1\n2\n>>> "
}

func ExampleLimits_WithDefaults() {
	fmt.Printf("%+v\n", scrollback.Limits{MaxBytes: 1000}.WithDefaults())
	// Output: {MaxLines:10000 MaxBytes:1000 MaxLineBytes:1000}
}
