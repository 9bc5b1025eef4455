package main

import (
	"context"
	"fmt"
	"io"
)

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "demo: not yet")
	return 1
}
