//go:build !linux

package threadrepl

import (
	"fmt"
	"os"
)

// Run fails: only Linux counts context switches per thread where the
// program can read them.
func Run() int {
	fmt.Fprintln(os.Stderr, "thread-repl: runs only on Linux")
	return 1
}
