package hardening

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// stressSession is one session under stress and what was seen of it.
type stressSession struct {
	id     core.SessionID
	mu     sync.Mutex
	seen   map[string]int // token -> times a tail returned it
	closed atomic.Bool
}

// TestStress runs 50 sessions and 100 goroutines that send, tail, read,
// signal and close at random (5 s in CI, 30 s with PTYSEAM_SOAK=1), and
// checks the invariants: no deadlock or panic, one live send per session,
// tails never repeat output, ids are never reused, closed sessions refuse
// calls.
func TestStress(t *testing.T) {
	const nSessions, nWorkers = 50, 100
	dur := 5 * time.Second
	if soak() {
		dur = 30 * time.Second
	}
	svc := newService(t, core.Options{QuietWindow: 500 * time.Millisecond, SendTimeout: 5 * time.Second})
	fac := ptysession.New(svc, ptysession.Options{})
	owner := core.NewOwner("stress")
	ctx := testCtx(t, 5*time.Minute)

	var (
		mu      sync.Mutex
		live    []*stressSession
		allIDs  = map[core.SessionID]bool{}
		tokenN  atomic.Int64
		ops     atomic.Int64
		refused atomic.Int64
	)
	spawn := func() error {
		s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "shell"})
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if allIDs[s.ID] {
			return fmt.Errorf("id %s reused", s.ID)
		}
		allIDs[s.ID] = true
		live = append(live, &stressSession{id: s.ID, seen: map[string]int{}})
		return nil
	}
	for range nSessions {
		if err := spawn(); err != nil {
			t.Fatal(err)
		}
	}
	pick := func(r *rand.Rand) *stressSession {
		mu.Lock()
		defer mu.Unlock()
		return live[r.IntN(len(live))]
	}
	// expected reports whether err is an allowed outcome of racing calls.
	expected := func(s *stressSession, err error) bool {
		switch {
		case err == nil:
			return true
		case errors.Is(err, core.ErrSendActive), errors.Is(err, core.ErrSessionClosing):
			refused.Add(1)
			return true
		case errors.Is(err, core.ErrNoSession), errors.Is(err, core.ErrSessionExited):
			refused.Add(1)
			return s.closed.Load()
		}
		return false
	}

	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	failures := make(chan error, nWorkers)
	for w := range nWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 42))
			for time.Now().Before(deadline) {
				s := pick(r)
				ops.Add(1)
				var err error
				switch op := r.IntN(100); {
				case op < 40:
					tok := fmt.Sprintf("T%dX", tokenN.Add(1))
					_, err = fac.Send(ctx, owner, s.id, ptysession.SendRequest{Data: fmt.Sprintf("printf 'T%%sX\\n' %s", tok[1:len(tok)-1])})
				case op < 70:
					var tr ptysession.TailResult
					tr, err = fac.Tail(ctx, owner, s.id, 1+r.IntN(400))
					if err == nil {
						s.mu.Lock()
						for _, f := range strings.Fields(tr.Text) {
							if strings.HasPrefix(f, "T") && strings.HasSuffix(f, "X") {
								s.seen[f]++
								if s.seen[f] > 1 {
									failures <- fmt.Errorf("session %s: tail returned %s twice", s.id, f)
								}
							}
						}
						s.mu.Unlock()
					}
				case op < 85:
					var p core.PageResult
					p, err = svc.Read(owner, s.id, core.PageRequest{Start: int64(r.IntN(200)), Count: 1 + r.IntN(100)})
					if err == nil && (p.End < p.Start || int64(len(p.Lines)) != p.End-p.Start) {
						failures <- fmt.Errorf("session %s: inconsistent page %d..%d with %d lines", s.id, p.Start, p.End, len(p.Lines))
					}
				case op < 95:
					_, err = svc.Signal(ctx, owner, s.id, core.SignalRequest{Signal: core.SIGINT})
				default:
					s.closed.Store(true)
					_, err = fac.Close(ctx, owner, s.id)
					if err == nil {
						if _, e := svc.Read(owner, s.id, core.PageRequest{}); !errors.Is(e, core.ErrNoSession) {
							failures <- fmt.Errorf("closed session %s still answers reads: %v", s.id, e)
						}
						mu.Lock()
						for i, x := range live {
							if x == s {
								live = append(live[:i:i], live[i+1:]...)
								break
							}
						}
						mu.Unlock()
						if e := spawn(); e != nil {
							failures <- e
						}
					}
				}
				if !expected(s, err) {
					failures <- fmt.Errorf("session %s: unexpected error: %v", s.id, err)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(dur + 2*time.Minute):
		t.Fatalf("deadlock: workers still busy 2 minutes after the deadline")
	}
	close(failures)
	for err := range failures {
		t.Error(err)
	}
	t.Logf("%d operations, %d refused as expected, %d sessions used", ops.Load(), refused.Load(), len(allIDs))
}
