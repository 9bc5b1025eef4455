package scripted_test

import (
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
)

func TestMain(m *testing.M) { testharness.RunMarked(m) }
