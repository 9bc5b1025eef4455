package k8s

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
)

// keepAlive is a new pod's program: it waits until the pod is deleted
// (SIGTERM) while sessions run as execs beside it.
var keepAlive = []string{"/bin/sh", "-c", "trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done"}

// podGrace is a new pod's termination grace period: Close has already
// ended every process of the session.
const podGrace int64 = 1

// newPodName returns a fresh pod name.
func newPodName() string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return "ptyseam-" + hex.EncodeToString(b[:])
}

// podSpec is the pod a template target makes for a session.
func podSpec(t *Target, name, marker string) *corev1.Pod {
	labels := maps.Clone(t.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[LabelSession] = "true"
	grace := podGrace
	noToken := false
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: t.namespace(), Labels: labels,
			Annotations: map[string]string{AnnotationMarker: marker}},
		Spec: corev1.PodSpec{
			RestartPolicy:                 corev1.RestartPolicyNever,
			TerminationGracePeriodSeconds: &grace,
			NodeName:                      t.NodeName,
			HostNetwork:                   t.HostNetwork,
			ServiceAccountName:            t.ServiceAccountName,
			AutomountServiceAccountToken:  &noToken,
			RuntimeClassName:              optional(t.RuntimeClassName),
			Volumes:                       t.Volumes,
			Containers: []corev1.Container{{
				Name: containerName, Image: t.Image, ImagePullPolicy: corev1.PullIfNotPresent,
				Command: keepAlive, WorkingDir: t.WorkingDir, Resources: t.Resources, VolumeMounts: t.VolumeMounts,
			}},
		},
	}
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// createPod creates the session's pod and waits until it runs (or fails
// to start, or timeout or ctx ends).
func (b *Backend) createPod(ctx context.Context, t *Target, marker string) (string, error) {
	name := newPodName()
	pods := b.cs.CoreV1().Pods(t.namespace())
	created, err := pods.Create(ctx, podSpec(t, name, marker), metav1.CreateOptions{})
	if err != nil {
		return "", spawnErr(ErrAPI, "creating the session's pod", err)
	}
	b.log.Info("k8s: created a session pod", "namespace", t.namespace(), "pod", name)
	wctx, cancel := context.WithTimeout(ctx, t.startTimeout())
	defer cancel()
	if err := b.waitRunning(wctx, t.namespace(), name, created.ResourceVersion); err != nil {
		return name, spawnErr(ErrAPI, "waiting for the session's pod "+name+" to run", err)
	}
	return name, nil
}

// errPodEnded: a pod ended or failed before its session could start.
var errPodEnded = errors.New("the pod ended")

// waitRunning watches the pod from resourceVersion on until it runs.
func (b *Backend) waitRunning(ctx context.Context, ns, name, resourceVersion string) error {
	var last *corev1.Pod
	for {
		w, err := b.cs.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{
			FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String(), ResourceVersion: resourceVersion})
		if err != nil {
			return err
		}
		for ev := range w.ResultChan() {
			switch ev.Type {
			case watch.Deleted:
				w.Stop()
				return fmt.Errorf("%w: deleted while starting", errPodEnded)
			case watch.Error:
				w.Stop()
				return apierrors.FromObject(ev.Object)
			}
			p, ok := ev.Object.(*corev1.Pod)
			if !ok {
				continue
			}
			last, resourceVersion = p, p.ResourceVersion
			switch p.Status.Phase {
			case corev1.PodRunning:
				w.Stop()
				return nil
			case corev1.PodFailed, corev1.PodSucceeded:
				w.Stop()
				return fmt.Errorf("%w: phase %s %s", errPodEnded, p.Status.Phase, waitingReason(p))
			}
		}
		w.Stop()
		if ctx.Err() != nil {
			if last != nil {
				return fmt.Errorf("%w (phase %s %s)", ctx.Err(), last.Status.Phase, waitingReason(last))
			}
			return ctx.Err()
		}
		// The watch ended (the API server's timeout): watch again.
	}
}

// waitingReason says why a pod's containers wait ("ErrImageNeverPull:
// ..."), or "".
func waitingReason(p *corev1.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && w.Reason != "" {
			return w.Reason + ": " + w.Message
		}
	}
	return ""
}

// deletePod deletes a session's pod and waits until the API holds it no
// more (its kubelet has stopped its containers).
func (b *Backend) deletePod(ctx context.Context, ns, name string) error {
	pods := b.cs.CoreV1().Pods(ns)
	grace := podGrace
	err := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: &grace})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("k8s: deleting pod %s/%s: %w", ns, name, err)
	}
	for {
		p, err := pods.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			b.log.Info("k8s: deleted a session pod", "namespace", ns, "pod", name)
			return nil
		}
		if err != nil && ctx.Err() != nil {
			return fmt.Errorf("k8s: waiting for pod %s/%s to go: %w", ns, name, ctx.Err())
		}
		rv := ""
		if p != nil {
			rv = p.ResourceVersion
		}
		if err := b.waitGone(ctx, ns, name, rv); err != nil {
			return fmt.Errorf("k8s: waiting for pod %s/%s to go: %w", ns, name, err)
		}
	}
}

// waitGone watches a pod until it is deleted (nil) or the watch ends
// (nil too: the caller asks again).
func (b *Backend) waitGone(ctx context.Context, ns, name, resourceVersion string) error {
	w, err := b.cs.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String(), ResourceVersion: resourceVersion})
	if err != nil {
		return err
	}
	defer w.Stop()
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok || ev.Type == watch.Deleted {
				return nil
			}
		case <-t.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// podGone reports whether a pod is deleted, being deleted, evicted or
// ended, asking the API server once within ctx; ok is false when it did
// not answer. The question is asked without client-go's retries: an API
// server that refuses the connection is the answer (it is lost), and a
// retry would only wait out client-go's one-second Retry-After first.
func (b *Backend) podGone(ctx context.Context, ns, name string) (gone, ok bool) {
	p := &corev1.Pod{}
	err := b.cs.CoreV1().RESTClient().Get().Namespace(ns).Resource("pods").Name(name).
		MaxRetries(0).Do(ctx).Into(p)
	switch {
	case apierrors.IsNotFound(err):
		return true, true
	case err != nil:
		return false, false
	}
	return p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded ||
		p.Status.Reason == "Evicted", true
}
