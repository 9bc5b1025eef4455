package jobs

import (
	"context"
	"errors"
	"sync"

	"github.com/ptyseam/ptyseam/core"
)

// DisposeOwner stops every job of owner (reason shutdown), closes their
// sessions and forgets their records, as when the agent that owned them
// goes away (an MCP client disconnecting; a ptysession facade's Dispose
// calls it for a manager attached with Sessions.Attach, before closing the
// owner's terminals; without the attachment, the facade's Dispose leaves
// the owner's jobs alone). Other owners' jobs are
// untouched. Launches for owner are refused from then on (OWNER_DISPOSED).
// It returns the joined cleanup failures.
func (m *Manager) DisposeOwner(ctx context.Context, owner *core.Owner) error {
	if owner == nil {
		return invalid("dispose", "owner is nil")
	}
	m.mu.Lock()
	m.disposed[owner] = struct{}{}
	m.mu.Unlock()
	jobs := m.ownedJobs(owner)
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !j.isExited() {
				if _, err := m.stopJob(ctx, j, ReasonShutdown, false); err != nil && !sessionGone(err) {
					errs[i] = err
				}
			}
			if err := m.dropJob(ctx, j); err != nil {
				errs[i] = errors.Join(errs[i], err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
