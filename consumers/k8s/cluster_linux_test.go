package k8s

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/k8s/k8stest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/remote/remotetest"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

func stopCluster() error { return k8stest.Stop() }

// newBackend returns a backend on the package's cluster with the agent
// binary, closed when t ends.
func newBackend(t testing.TB) (*Backend, *k8stest.Cluster) {
	t.Helper()
	c := k8stest.Shared(t)
	return backendOn(t, c.Config), c
}

// backendOn returns a backend with client configuration cfg.
func backendOn(t testing.TB, cfg *rest.Config) *Backend {
	t.Helper()
	b, err := NewBackend(BackendOptions{Config: cfg, AgentBinary: remotetest.Binary(t), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// shellTarget is a new pod from k8stest.ShellImage on the test node, on
// the host network, with the host's /usr mounted read-only at /usr (the image
// links /lib and /lib64 into it): the host's bash, python3 and
// coreutils. Extra host directories are mounted at their own paths.
func shellTarget(extra ...string) *Target {
	tg := &Target{Image: k8stest.ShellImage, NodeName: k8stest.NodeName, HostNetwork: true}
	for i, dir := range append([]string{"/usr"}, extra...) {
		name := "host-" + string(rune('a'+i))
		tg.Volumes = append(tg.Volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: dir}}})
		tg.VolumeMounts = append(tg.VolumeMounts, corev1.VolumeMount{Name: name, MountPath: dir, ReadOnly: true})
	}
	return tg
}

// newFacade registers b on a fresh service and returns the facade with
// the targets, shut down when t ends.
func newFacade(t *testing.T, b *Backend, targets map[string]ptysession.Target) (*ptysession.Sessions, *core.Service) {
	t.Helper()
	svc := remotetest.NewService(t, b)
	return ptysession.New(svc, ptysession.Options{Targets: targets}), svc
}

// sessionPods lists the pods the backend created that the API holds.
func sessionPods(t testing.TB, c *k8stest.Cluster) []string {
	t.Helper()
	l, err := c.Client.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{LabelSelector: LabelSession})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range l.Items {
		names = append(names, p.Namespace+"/"+p.Name)
	}
	return names
}

// newPod returns the one pod in after that is not in before.
func newPod(t testing.TB, before, after []string) (ns, name string) {
	t.Helper()
	var found []string
	for _, p := range after {
		if !slices.Contains(before, p) {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		t.Fatalf("new session pods: %v, want one", found)
	}
	ns, name, _ = strings.Cut(found[0], "/")
	return ns, name
}

// podExists asks the API server whether a pod is there.
func podExists(t testing.TB, c *k8stest.Cluster, ns, name string) bool {
	t.Helper()
	_, err := c.Client.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return err == nil
}

// hostProcs lists the host's processes whose command line holds marker
// (pods' processes are the host's too).
func hostProcs(marker string) []string {
	var out []string
	files, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if cl := strings.ReplaceAll(string(b), "\x00", " "); strings.Contains(cl, marker) {
			out = append(out, filepath.Base(filepath.Dir(f))+": "+cl)
		}
	}
	return out
}

// waitHostProcs waits until the host lists a process holding marker
// (want) or none (!want).
func waitHostProcs(t testing.TB, ctx context.Context, marker string, want bool) {
	t.Helper()
	for (len(hostProcs(marker)) > 0) != want {
		select {
		case <-ctx.Done():
			t.Fatalf("processes holding %q: %v, want present=%v", marker, hostProcs(marker), want)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// drain reads a session's output away.
func drain(s core.BackendSession) {
	buf := make([]byte, 4096)
	for {
		if _, err := s.Read(buf); err != nil {
			return
		}
	}
}

// percentile returns the p-th percentile (0-100) of ds, sorted in place.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sortDurations(ds)
	i := (len(ds)*p + 99) / 100
	if i > 0 {
		i--
	}
	return ds[i]
}
