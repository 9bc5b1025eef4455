package k8s

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/ptysession"
)

// A bash in a new pod is a facade target: `true` settles on the prompt
// and python3's input() on its stdin read (the agent's kernel-level
// evidence, not silence), SIGINT reaches the foreground job, and Close
// ends a setsid double fork that ignores SIGTERM and SIGHUP and deletes
// the pod. The p50s of the settles are logged.
func TestFacadePodShell(t *testing.T) {
	b, c := newBackend(t)
	s, _ := newFacade(t, b, map[string]ptysession.Target{
		"pod": {Backend: Type, Description: "test pod", Options: shellTarget()},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	owner := core.NewOwner("test")
	before := len(sessionPods(t, c))
	opened := time.Now()
	op, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Target: "pod"})
	if err != nil {
		t.Fatal(err)
	}
	if op.Status.Exited() {
		t.Fatalf("open: %+v", op)
	}
	t.Logf("open of a pod target (pod created, agent copied in, bash ready): %v", time.Since(opened))
	id := op.SessionID
	pods := sessionPods(t, c)
	if len(pods) != before+1 {
		t.Fatalf("session pods while the session runs: %v", pods)
	}
	send := func(data string, timeout time.Duration) ptysession.SendResult {
		t.Helper()
		r, err := s.Send(ctx, owner, id, ptysession.SendRequest{Data: data, Timeout: timeout})
		if err != nil {
			t.Fatalf("send %q: %v", data, err)
		}
		return r
	}
	trues, reads := measureSettles(t, ctx, s, owner, id)
	lt, lr := localSettles(t, ctx)
	t.Logf("settles (n=%d), k8s pod vs local in the same run: true on the prompt p50 %v (local %v), p99 %v (local %v); python3 on its read p50 %v (local %v), p99 %v (local %v)",
		settleSends, percentile(trues, 50), percentile(lt, 50), percentile(trues, 99), percentile(lt, 99),
		percentile(reads, 50), percentile(lr, 50), percentile(reads, 99), percentile(lr, 99))
	if sr, err := s.Signal(ctx, owner, id, "SIGINT"); err != nil || !sr.Delivered {
		t.Fatalf("SIGINT to python3: %+v %v", sr, err)
	}
	if r := send("echo rc=$?", 0); r.WaitReason != core.WaitPrompt || !strings.Contains(r.Delta, "rc=130") {
		t.Fatalf("after SIGINT: %s %q, want the prompt and rc=130", r.WaitReason, r.Delta)
	}
	// A stray that leaves the session's process group and session and
	// ignores SIGTERM and SIGHUP.
	stray := fmt.Sprintf("sleep 7%d", time.Now().UnixNano()%1000000)
	send(fmt.Sprintf(`setsid sh -c 'trap "" TERM HUP; (trap "" TERM HUP; exec %s) &' </dev/null >/dev/null 2>&1`, stray), 0)
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	waitHostProcs(t, wctx, stray, true)
	wcancel()
	closed := time.Now()
	if cr, err := s.Close(ctx, owner, id); err != nil || !cr.Closed {
		t.Fatalf("close: %+v %v", cr, err)
	}
	t.Logf("close (tree ended in the pod, pod deleted and gone): %v", time.Since(closed))
	if left := hostProcs(stray); len(left) > 0 {
		t.Fatalf("the setsid double fork survived Close: %v", left)
	}
	if after := sessionPods(t, c); len(after) != before {
		t.Fatalf("session pods after Close: %v, want %d", after, before)
	}
}

// settleSends is how many sends measureSettles times of each kind.
const settleSends = 20

// measureSettles times settleSends sends of `true` (settling on the
// prompt), then starts a python3 input() loop and times as many lines
// (each settling on python3's read), failing t on another settle.
func measureSettles(t *testing.T, ctx context.Context, s *ptysession.Sessions, owner *core.Owner, id core.SessionID) (trues, reads []time.Duration) {
	t.Helper()
	send := func(data string) ptysession.SendResult {
		t.Helper()
		r, err := s.Send(ctx, owner, id, ptysession.SendRequest{Data: data})
		if err != nil {
			t.Fatalf("send %q: %v", data, err)
		}
		return r
	}
	for range settleSends {
		start := time.Now()
		if r := send("true"); r.WaitReason != core.WaitPrompt {
			t.Fatalf("send true settled on %q", r.WaitReason)
		}
		trues = append(trues, time.Since(start))
	}
	if r := send(`python3 -c 'while True: print("got", input())'`); r.WaitReason != core.WaitStdinRead {
		t.Fatalf("python3 settled on %q: %q", r.WaitReason, r.Delta)
	}
	for i := range settleSends {
		start := time.Now()
		r := send(fmt.Sprintf("x%d", i))
		if r.WaitReason != core.WaitStdinRead || !strings.Contains(r.Delta, fmt.Sprintf("got x%d", i)) {
			t.Fatalf("python3 read settled on %q: %q", r.WaitReason, r.Delta)
		}
		reads = append(reads, time.Since(start))
	}
	return trues, reads
}

// localSettles measures the same settles on a local bash (core/localpty)
// in this process, for comparison.
func localSettles(t *testing.T, ctx context.Context) (trues, reads []time.Duration) {
	t.Helper()
	svc := core.New(core.Options{Logger: slog.New(slog.DiscardHandler)})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := svc.Shutdown(context.WithoutCancel(ctx)); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	}()
	s := ptysession.New(svc, ptysession.Options{})
	owner := core.NewOwner("local")
	op, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		t.Fatal(err)
	}
	return measureSettles(t, ctx, s, owner, op.SessionID)
}
