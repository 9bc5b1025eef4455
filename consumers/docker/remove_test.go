package docker

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/stretchr/testify/require"
)

// The engine's answer when it could not delete a dead container's
// directory (seen on a loaded machine while removing 50 containers).
var errFilesBusy = errors.New("Error response from daemon: unable to remove filesystem for 41c87b7c7957: unlinkat /var/lib/docker/containers/41c87b7c7957: directory not empty")

func TestRemoveAgainAfterFilesNotRemoved(t *testing.T) {
	calls := 0
	err := removeAgain(context.Background(), func(context.Context) error {
		calls++
		if calls < 3 {
			return errFilesBusy
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 3, calls)
}

func TestRemoveAgainGivesUp(t *testing.T) {
	calls := 0
	err := removeAgain(context.Background(), func(context.Context) error { calls++; return errFilesBusy })
	require.ErrorIs(t, err, errFilesBusy)
	require.Equal(t, removeAttempts, calls)

	other := errors.New("Error response from daemon: permission denied")
	calls = 0
	err = removeAgain(context.Background(), func(context.Context) error { calls++; return other })
	require.ErrorIs(t, err, other)
	require.Equal(t, 1, calls, "a failure other than the files' is not asked again")
}

func TestRemoveAgainEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	done := make(chan error, 1)
	go func() {
		done <- removeAgain(ctx, func(context.Context) error { calls++; cancel(); return errFilesBusy })
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, errFilesBusy)
		require.Equal(t, 1, calls)
	case <-time.After(testenv.HangBound):
		t.Fatal("removeAgain did not return after its context ended")
	}
}
