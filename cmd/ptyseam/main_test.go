package main

import (
	"os"
	"testing"

	"github.com/ptyseam/ptyseam/sandbox"
	"github.com/ptyseam/ptyseam/testharness"
)

// runMarker is inherited by every process the tests start.
var runMarker string

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.Command {
		// Sandboxed sessions started by the tests use this binary as
		// their launcher, as they use ptyseam's in production.
		os.Exit(runLauncher(os.Args[2:], os.Stderr))
	}
	runMarker = testharness.MarkRun()
	testharness.RunMarked(m)
}
