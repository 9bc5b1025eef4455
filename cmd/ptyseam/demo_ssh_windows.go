package main

import (
	"context"
	"errors"
)

// demoSSH is not run on Windows: the in-process SSH test server gives
// each session a local shell on a Unix pseudo-terminal.
func demoSSH(ctx context.Context, d *demo) error {
	return errors.New("the ssh step needs a Unix pseudo-terminal for its test server's shell (Linux, macOS)")
}
