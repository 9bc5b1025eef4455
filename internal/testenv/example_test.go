package testenv_test

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// A test waits for the event (here the child's exit) and bounds the
// wait with HangBound, so a hang fails with a message, not a panic at
// the suite's -timeout.
func ExampleHangBound() {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, "true")
	if err := cmd.Run(); err != nil {
		fmt.Println("true did not exit:", err)
		return
	}
	fmt.Println("exited")
	// Output: exited
}
