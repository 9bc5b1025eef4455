package main

import "github.com/ptyseam/ptyseam/internal/threadrepl"

func runThreadREPL(args []string) int {
	if len(args) != 0 {
		return fail("usage: thread-repl")
	}
	return threadrepl.Run()
}
