package testharness

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptyseam/ptyseam/core"
)

// testTail: a session has one tail position, its owner's. Tail returns
// each output once; a send with SendRequest.Tail returns what was printed
// before it and its own output, and moves the position; SkipTail passes
// over what is there.
func (ts *termSuite) testTail(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("tail")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl", "--marker"))
	first, err := terms.Tail(owner, res.ID, core.TailRequest{})
	require.NoError(t, err, "Tail")
	assert.Equal(t, "> ", first.Text, "the first tail: the initial prompt")
	again, err := terms.Tail(owner, res.ID, core.TailRequest{})
	require.NoError(t, err, "Tail")
	assert.Empty(t, again.Text, "a tail with nothing new")

	// Output the owner was not given (a send without Tail) comes with the
	// next send that asks for the tail.
	send(t, terms, owner, res.ID, core.SendRequest{Data: "before", QuietWindow: time.Minute})
	r := send(t, terms, owner, res.ID, core.SendRequest{Data: "mine", QuietWindow: time.Minute, Tail: &core.TailRequest{}})
	assert.Equal(t, "before\nbefore\n> mine\nmine\n> ", r.Delta, "a send with Tail: the output since the last tail, then its own")
	after, err := terms.Tail(owner, res.ID, core.TailRequest{})
	require.NoError(t, err, "Tail")
	assert.Empty(t, after.Text, "a tail after a send with Tail")

	send(t, terms, owner, res.ID, core.SendRequest{Data: "skipped", QuietWindow: time.Minute})
	require.NoError(t, terms.SkipTail(owner, res.ID), "SkipTail")
	skipped, err := terms.Tail(owner, res.ID, core.TailRequest{})
	require.NoError(t, err, "Tail")
	assert.Empty(t, skipped.Text, "a tail after SkipTail")

	_, err = terms.Tail(core.NewOwner("other"), res.ID, core.TailRequest{})
	wantCode(t, "another owner's Tail", err, core.CodeForeignSession)
	_, err = terms.Tail(owner, res.ID, core.TailRequest{Lines: -1})
	wantCode(t, "a negative line bound", err, core.CodeInvalidArgument)
}

// testQueuedSend: a queued send waits for the live one and then runs; the
// live send's result, cut as it settled, holds none of the queued send's
// output.
func (ts *termSuite) testQueuedSend(t *testing.T) {
	terms := ts.h.New(t)
	owner := core.NewOwner("queue")
	res := spawn(t, terms, owner, ts.request(t, "echo-repl", "--marker"))
	ctx := testCtx(t)
	slow, err := terms.Send(ctx, owner, res.ID, core.SendRequest{Data: "sleep 300ms", QuietWindow: time.Minute, Tail: &core.TailRequest{}})
	require.NoError(t, err, "Send")
	var wg sync.WaitGroup
	var queued core.SendResult
	var queuedErr error
	wg.Go(func() {
		op, err := terms.Send(ctx, owner, res.ID, core.SendRequest{Data: "next", QuietWindow: time.Minute, Tail: &core.TailRequest{}, Queue: true})
		if err != nil {
			queuedErr = err
			return
		}
		queued, queuedErr = op.Wait(ctx)
	})
	first, err := slow.Wait(ctx)
	require.NoError(t, err, "Wait")
	wg.Wait()
	require.NoError(t, queuedErr, "the queued send")
	assert.NotContains(t, first.Delta, "next", "the live send's result holds the queued send's output: %+v", first)
	assert.Equal(t, "next\nnext\n> ", queued.Delta, "the queued send's result")
}
