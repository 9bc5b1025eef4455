package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Bounds of the secret pages handed out as links.
const (
	maxSecretLinks      = 16 // open at once, server-wide
	maxOwnerSecretLinks = 4  // open at once, per client
)

// secretDesk keeps the secret pages whose links a model handed to its
// user (a client without URL-mode elicitation): each stays open until a
// submission, its deadline, its session's end or the server's shutdown,
// one per session.
type secretDesk struct {
	log    *slog.Logger
	ctx    context.Context // ended by close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	open    map[core.SessionID]bool
	owners  map[*core.Owner]int
	pending int
}

func newSecretDesk(log *slog.Logger) *secretDesk {
	d := &secretDesk{log: log, open: make(map[core.SessionID]bool), owners: make(map[*core.Owner]int)}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	return d
}

// hold opens a page for session id and keeps it open for wait in the
// background: the model gets its link.
func (d *secretDesk) hold(svc *core.Service, owner *core.Owner, id core.SessionID, data secretPageData, wait time.Duration) (secretResult, error) {
	const op = "secret"
	d.mu.Lock()
	switch {
	case d.ctx.Err() != nil:
		d.mu.Unlock()
		return secretResult{}, &core.Error{Code: core.CodeServiceDisposing, Op: op, Session: id, Msg: "the server is shutting down"}
	case d.open[id]:
		d.mu.Unlock()
		return secretResult{}, &core.Error{Code: core.CodeInvalidArgument, Op: op, Session: id,
			Msg: "a secret page for this session is open already: give the user its link again, or wait until it expires"}
	case d.owners[owner] >= maxOwnerSecretLinks || d.pending >= maxSecretLinks:
		d.mu.Unlock()
		return secretResult{}, &core.Error{Code: core.CodeResourceLimit, Op: op, Session: id, Msg: "too many secret pages are open"}
	}
	page, err := openSecretPage(data)
	if err != nil {
		d.mu.Unlock()
		return secretResult{}, err
	}
	d.open[id] = true
	d.owners[owner]++
	d.pending++
	d.wg.Add(2)
	d.mu.Unlock()
	ctx, cancel := context.WithTimeout(d.ctx, wait)
	go func() { // the page ends with the session
		defer d.wg.Done()
		_, _ = svc.Wait(ctx, owner, id)
		cancel()
	}()
	go func() {
		defer d.wg.Done()
		defer d.release(owner, id)
		defer page.close()
		defer cancel()
		select {
		case sub := <-page.submissions:
			err := typeSubmission(ctx, svc, owner, id, data.Reader, sub)
			d.log.Debug("ptyseam: secret page answered", "session", id, "typed", err == nil, "code", core.CodeOf(err))
		case <-ctx.Done():
			d.log.Debug("ptyseam: secret page closed unused", "session", id)
		}
	}()
	return secretResult{Outcome: secretLink, URL: page.url, ExpiresInMs: wait.Milliseconds()}, nil
}

func (d *secretDesk) release(owner *core.Owner, id core.SessionID) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.open, id)
	if d.owners[owner]--; d.owners[owner] <= 0 {
		delete(d.owners, owner)
	}
	d.pending--
}

// close ends every open page and waits for them.
func (d *secretDesk) close() {
	d.mu.Lock()
	d.cancel()
	d.mu.Unlock()
	d.wg.Wait()
}
