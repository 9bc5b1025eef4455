package docker

import (
	"context"
	"strings"
	"time"
)

// removeAttempts bounds how often a removal is asked again after the
// engine failed to delete the container's files.
const removeAttempts = 5

// removeAgain asks remove until it succeeds, fails with another error than
// a failed deletion of the container's files, the attempts run out or ctx
// ends, waiting 50 ms, then twice as long before each new attempt.
//
// A forced removal kills the container and deletes its directory; under
// load the engine can still be writing into that directory (its log, a
// mount being torn down) as it deletes it, and answers "unable to remove
// filesystem ...: directory not empty" or "device or resource busy" for a
// container that is already dead. Asked again a moment later, it removes
// the container. Any other failure is returned at once.
func removeAgain(ctx context.Context, remove func(context.Context) error) error {
	wait := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := remove(ctx)
		if err == nil || attempt == removeAttempts || !filesNotRemoved(err) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait *= 2
	}
}

// filesNotRemoved reports whether err is the engine's failure to delete a
// container's files (its directory or its root file system), which a later
// attempt can get past.
func filesNotRemoved(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "unable to remove filesystem") || strings.Contains(msg, "failed to remove root filesystem")
}
