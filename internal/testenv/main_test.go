package testenv

import (
	"os"
	"testing"
)

// TestMain removes the private HOME a test made.
func TestMain(m *testing.M) {
	code := m.Run()
	if privateHome.dir != "" {
		_ = os.RemoveAll(privateHome.dir)
	}
	os.Exit(code)
}
