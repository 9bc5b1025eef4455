package testharness

import (
	"errors"
	"sync"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// registered are the directories [Cleanup] removes besides the children
// binary's.
var registered struct {
	mu   sync.Mutex
	dirs []string
}

// RemoveAtCleanup registers a directory of the test process's own (a
// binary it built for the tests) that [Cleanup] removes with everything in
// it. A TestMain that ends in [RunMarked] or [VerifyTestMain] exits the
// process there, so its deferred calls never run: register what they
// would have removed. The temporary directory is shared by every process
// of the machine, and a built agent is 20 MB.
func RemoveAtCleanup(dir string) {
	registered.mu.Lock()
	defer registered.mu.Unlock()
	registered.dirs = append(registered.dirs, dir)
}

// removeRegistered removes the registered directories and forgets them.
func removeRegistered() error {
	registered.mu.Lock()
	dirs := registered.dirs
	registered.dirs = nil
	registered.mu.Unlock()
	var errs []error
	for _, d := range dirs {
		if err := testenv.RemoveTree(d); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
