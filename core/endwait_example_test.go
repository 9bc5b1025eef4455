package core_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// A backend's resize that the transport refused because the program has
// just ended waits for the session to learn the end, then is the
// session's own SESSION_EXITED error, not the transport's.
func ExampleEndWait() {
	var exit core.ExitLatch
	w := core.EndWait{Ended: exit.Exited(), Gone: func() error {
		return core.Errorf(core.CodeSessionExited, "the program has ended; read its last output and exit status, then close the session")
	}}
	go exit.Set(core.ExitedWithCode(3)) // the exit report, a moment later
	err := w.Err(context.Background(), "example resize", errors.New("EOF"))
	fmt.Println(err)
	// Output:
	// SESSION_EXITED: the program has ended; read its last output and exit status, then close the session
}
