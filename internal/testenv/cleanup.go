package testenv

import (
	"errors"
	"slices"
	"sync"
)

// registered are the directories RemoveRegistered removes.
var registered struct {
	mu   sync.Mutex
	dirs []string
}

// RemoveAtCleanup registers a directory of the test process's own (a
// binary it built for the tests, a private home) that [RemoveRegistered]
// removes with everything in it. A TestMain that exits the process (as
// testharness.RunMarked and VerifyTestMain do) never runs its deferred
// calls: register what they would have removed. The temporary directory
// is shared by every process of the machine, and a built agent is 20 MB.
func RemoveAtCleanup(dir string) {
	registered.mu.Lock()
	defer registered.mu.Unlock()
	registered.dirs = append(registered.dirs, dir)
}

// RemoveRegistered removes the registered directories and forgets them.
func RemoveRegistered() error {
	registered.mu.Lock()
	dirs := registered.dirs
	registered.dirs = nil
	registered.mu.Unlock()
	var errs []error
	for _, d := range dirs {
		if err := RemoveTree(d); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// WillRemove reports whether dir is registered for [RemoveRegistered].
func WillRemove(dir string) bool {
	registered.mu.Lock()
	defer registered.mu.Unlock()
	return slices.Contains(registered.dirs, dir)
}
