package k8s

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// scaleSessions is how many sessions TestScale opens at once
// (PTYSEAM_K8S_SCALE overrides it).
func scaleSessions() int {
	if n, err := strconv.Atoi(os.Getenv("PTYSEAM_K8S_SCALE")); err == nil && n > 0 {
		return n
	}
	return 50
}

// Fifty sessions in fifty new pods opened at once all run, and closed at
// once leave no pod and no process behind. The p50 and p99 of open and
// close are logged.
func TestScale(t *testing.T) {
	b, c := newBackend(t)
	n := scaleSessions()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	before := sessionPods(t, c)
	tg := shellTarget()
	stamp := time.Now().UnixNano() % 1000000
	sessions := make([]core.BackendSession, n)
	opens, closes := make([]time.Duration, n), make([]time.Duration, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			t0 := time.Now()
			s, err := b.Spawn(ctx, core.BackendRequest{Command: []string{"sleep", fmt.Sprintf("3%d%03d", stamp, i)},
				Size: core.DefaultSize, Marker: fmt.Sprintf("scale-%d", i), Options: tg})
			opens[i], sessions[i], errs[i] = time.Since(t0), s, err
			if err == nil {
				go drain(s)
			}
		})
	}
	wg.Wait()
	allOpen := time.Since(start)
	for i, err := range errs {
		if err != nil {
			t.Errorf("session %d: %v", i, err)
		}
	}
	if pods := sessionPods(t, c); len(pods) != len(before)+n && !t.Failed() {
		t.Errorf("%d session pods while %d sessions run", len(pods)-len(before), n)
	}
	marker := fmt.Sprintf("sleep 3%d", stamp)
	if got := len(hostProcs(marker)); got != n && !t.Failed() {
		t.Errorf("%d session programs run, want %d", got, n)
	}
	start = time.Now()
	for i, s := range sessions {
		if s == nil {
			continue
		}
		wg.Go(func() {
			t0 := time.Now()
			if err := s.Close(ctx); err != nil {
				t.Errorf("close %d: %v", i, err)
			}
			closes[i] = time.Since(t0)
		})
	}
	wg.Wait()
	allClosed := time.Since(start)
	t.Logf("%d sessions in %d new pods: all open in %v (open p50 %v p99 %v); all closed in %v (close p50 %v p99 %v)",
		n, n, allOpen.Round(time.Millisecond), percentile(opens, 50).Round(time.Millisecond), percentile(opens, 99).Round(time.Millisecond),
		allClosed.Round(time.Millisecond), percentile(closes, 50).Round(time.Millisecond), percentile(closes, 99).Round(time.Millisecond))
	if after := sessionPods(t, c); len(after) != len(before) {
		t.Errorf("session pods after every Close: %v, before: %v", after, before)
	}
	if left := hostProcs(marker); len(left) > 0 {
		t.Errorf("session processes left after every Close: %v", left)
	}
}
