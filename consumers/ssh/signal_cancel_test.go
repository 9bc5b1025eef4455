package ssh

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/ptyseam/ptyseam/core"
)

// refusingChannel is a session channel whose server refuses every
// request, as one does a signal it cannot deliver.
type refusingChannel struct{}

func (refusingChannel) Read([]byte) (int, error)                       { return 0, io.EOF }
func (refusingChannel) Write(p []byte) (int, error)                    { return len(p), nil }
func (refusingChannel) Close() error                                   { return nil }
func (refusingChannel) CloseWrite() error                              { return nil }
func (refusingChannel) SendRequest(string, bool, []byte) (bool, error) { return false, nil }
func (refusingChannel) Stderr() io.ReadWriter                          { return nil }

// A caller that gives up while Signal, after the server refused the
// signal, waits for the request loop to take what the server sent before
// the refusal gets CANCELLED naming the ssh signal and matching its
// context's error, never an uncoded error the service reports as
// INTERNAL: whether the loop had yet to take the ask or had taken it and
// not finished.
func TestSignalRefusedThenCancelled(t *testing.T) {
	for _, loop := range []string{"busy", "taking"} {
		for _, end := range []string{"cancelled", "deadline"} {
			t.Run(loop+"/"+end, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s := &session{c: &conn{}, ch: refusingChannel{},
						syncReqs: make(chan chan struct{}), reqsDone: make(chan struct{}), closed: make(chan struct{})}
					ctx, cancel := context.WithCancel(t.Context())
					want := context.Canceled
					if end == "deadline" {
						ctx, cancel = context.WithTimeout(t.Context(), answerLimit)
						want = context.DeadlineExceeded
					}
					defer cancel()
					res := make(chan error, 1)
					go func() {
						_, err := s.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM})
						res <- err
					}()
					if loop == "taking" {
						<-s.syncReqs // taken, never answered
					}
					synctest.Wait() // Signal waits for the request loop
					if end == "cancelled" {
						cancel()
					}
					err := <-res
					s.c.wg.Wait()
					if !errors.Is(err, core.ErrCancelled) || !errors.Is(err, want) {
						t.Fatalf("err = %v (code %q), want CANCELLED matching %v", err, core.CodeOf(err), want)
					}
					if !strings.Contains(err.Error(), "ssh signal") || !strings.Contains(err.Error(), "refused SIGTERM") {
						t.Fatalf("err = %v, want one naming the ssh signal and the refusal", err)
					}
				})
			})
		}
	}
}
