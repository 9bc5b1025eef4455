package bench

import (
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if bin, err := ptyseamBinary(); err == nil {
			_ = os.RemoveAll(filepath.Dir(bin))
		}
		os.Exit(code)
	}))
}
