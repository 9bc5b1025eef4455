package core_test

import (
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// A backend session embeds an ExitLatch for Exited and ExitStatus; what
// learns the exit first (the exit report, a lost connection, Close) sets
// it, and later reports change nothing.
func ExampleExitLatch() {
	var exit core.ExitLatch
	fmt.Println(exit.ExitStatus().Kind)
	fmt.Println(exit.Set(core.ExitedWithCode(3)))
	fmt.Println(exit.Set(core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "closed"}))
	<-exit.Exited()
	fmt.Println(exit.ExitStatus().ExitCode)
	// Output:
	// running
	// true
	// false
	// 3
}
