package k8s

import (
	"fmt"
	"os"
	"testing"

	"github.com/ptyseam/ptyseam/testharness"
	"go.uber.org/goleak"
)

// TestMain stops the package's cluster, then checks for leaked
// goroutines and removes the built binaries (failing if any of their
// processes survived).
func TestMain(m *testing.M) {
	code := m.Run()
	if err := stopCluster(); err != nil {
		fmt.Fprintln(os.Stderr, "k8stest:", err)
		code = max(code, 1)
	}
	if code == 0 {
		if err := goleak.Find(leakOptions...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	if err := testharness.Cleanup(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = max(code, 1)
	}
	os.Exit(code)
}

// leakOptions ignore the goroutines client-go's dependencies start once
// per process and never end: klog's flush daemon.
var leakOptions = []goleak.Option{
	goleak.IgnoreTopFunction("k8s.io/klog/v2.(*flushDaemon).run.func1"),
}
