package core

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A call the transport refused waits until the session learns its end
// (Ended, or Close's Closed) and is then Gone's error; when the caller
// gives up first it is CANCELLED, names the transport's call and matches
// both the transport's error and the context's; a transport error that is
// the context's own is CANCELLED at once.
func TestEndWaitErr(t *testing.T) {
	boom := errors.New("EOF")
	gone := &Error{Code: CodeSessionExited, Msg: "ended; close the session"}
	for _, end := range []string{"ended", "closed", "caller gave up", "context's own error", "ended, and the caller gave up"} {
		t.Run(end, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ended, closed := make(chan struct{}), make(chan struct{})
				w := EndWait{Ended: ended, Closed: closed, Gone: func() error { return gone }}
				ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
				defer cancel()
				callErr := boom
				switch end {
				case "context's own error":
					cancel()
					callErr = ctx.Err()
				case "ended, and the caller gave up": // both known: the end wins
					close(ended)
					cancel()
				}
				res := make(chan error, 1)
				go func() { res <- w.Err(ctx, "test call", callErr) }()
				synctest.Wait()
				if end == "ended" || end == "closed" {
					select {
					case err := <-res:
						t.Fatalf("Err returned %v before the session learnt its end", err)
					default:
					}
				}
				switch end {
				case "ended":
					close(ended)
				case "closed":
					close(closed)
				}
				err := <-res // the caller's case: the minute passes in the bubble
				switch end {
				case "ended", "closed", "ended, and the caller gave up":
					if err != gone {
						t.Fatalf("Err: %v, want Gone's error", err)
					}
				case "caller gave up":
					if CodeOf(err) != CodeCancelled || !errors.Is(err, boom) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "test call: EOF") {
						t.Fatalf("Err: %v; want CANCELLED, the call's error, named, and the context's", err)
					}
				default:
					if CodeOf(err) != CodeCancelled || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "test call") {
						t.Fatalf("Err: %v; want CANCELLED naming the call", err)
					}
				}
			})
		})
	}
}
