package main

import (
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

// runMarker is inherited by every process the tests start.
var runMarker string

func TestMain(m *testing.M) {
	runMarker = testharness.MarkRun()
	testharness.RunMarked(m)
}
