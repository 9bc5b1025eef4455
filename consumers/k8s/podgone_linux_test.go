package k8s

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/k8s/k8stest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Deleting a session's pod under it ends a running send with
// session_exit and ReasonPodGone, and later calls fail with errors
// matching ErrPodGone (and remote.ErrConnectionLost); Close then
// succeeds and leaves no pod.
func TestPodDeletedUnderSession(t *testing.T) {
	podGoneUnderSession(t, "deletion", func(ctx context.Context, c *k8stest.Cluster, ns, pod string) error {
		grace := int64(0)
		return c.Client.CoreV1().Pods(ns).Delete(ctx, pod, metav1.DeleteOptions{GracePeriodSeconds: &grace})
	})
}

// An eviction (the API a drain or a descheduler uses) ends the session
// as a deletion does: with ReasonPodGone and errors matching ErrPodGone.
func TestPodEvictedUnderSession(t *testing.T) {
	podGoneUnderSession(t, "eviction", func(ctx context.Context, c *k8stest.Cluster, ns, pod string) error {
		grace := int64(0)
		return c.Client.CoreV1().Pods(ns).EvictV1(ctx, &policyv1.Eviction{
			ObjectMeta:    metav1.ObjectMeta{Name: pod, Namespace: ns},
			DeleteOptions: &metav1.DeleteOptions{GracePeriodSeconds: &grace},
		})
	})
}

// podGoneUnderSession ends a session's pod with end while a send runs
// and checks what the send, a later send and Close make of it.
func podGoneUnderSession(t *testing.T, what string, end func(ctx context.Context, c *k8stest.Cluster, ns, pod string) error) {
	b, c := newBackend(t)
	svc := remotetest.NewService(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	owner := core.NewOwner("test")
	tg := shellTarget()
	tg.Shell = []string{"/bin/bash"}
	before := sessionPods(t, c)
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: Type, Options: tg})
	if err != nil {
		t.Fatal(err)
	}
	ns, pod := newPod(t, before, sessionPods(t, c))
	sleep := fmt.Sprintf("sleep 2%d", time.Now().UnixNano()%1000000)
	op, err := svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: sleep, QuietWindow: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	waitHostProcs(t, wctx, sleep, true)
	wcancel()
	ended := time.Now()
	if err := end(ctx, c, ns, pod); err != nil {
		t.Fatal(err)
	}
	res, err := op.Wait(ctx)
	t.Logf("the send ended %v after the pod's %s: %s", time.Since(ended), what, res.Status)
	if err != nil || res.WaitReason != core.WaitSessionExit || res.Status.Reason != ReasonPodGone {
		t.Fatalf("the send after the %s: %+v, %v; want session_exit, exited (%s)", what, res, err, ReasonPodGone)
	}
	_, err = svc.Send(ctx, owner, sp.ID, core.SendRequest{Data: "true"})
	if !errors.Is(err, core.ErrSessionExited) || !errors.Is(err, ErrPodGone) || !errors.Is(err, remote.ErrConnectionLost) {
		t.Fatalf("a send after the %s: %v; want SESSION_EXITED matching ErrPodGone and remote.ErrConnectionLost", what, err)
	}
	if _, err := svc.Close(ctx, owner, sp.ID, "done"); err != nil {
		t.Fatal(err)
	}
	if podExists(t, c, ns, pod) {
		t.Fatalf("pod %s/%s still there after Close", ns, pod)
	}
	if left := hostProcs(sleep); len(left) > 0 {
		t.Fatalf("processes of the deleted pod left: %v", left)
	}
}
