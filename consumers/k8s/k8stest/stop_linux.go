package k8stest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// stopTimeout bounds a cluster's stop.
const stopTimeout = 2 * time.Minute

// Stop deletes every pod, ends the kubelet, removes every container left
// in containerd, ends the API server, containerd and etcd by pid, kills
// any shim left, unmounts what is mounted under the cluster's directory,
// and removes it.
func (c *Cluster) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	var errs []error
	if c.Client != nil && c.running("kubelet") && c.running("kube-apiserver") {
		if err := c.deletePods(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, c.stopProc("kubelet"))
	if c.running("containerd") {
		c.removeContainers(ctx)
	}
	for _, name := range []string{"kube-apiserver", "containerd", "etcd"} {
		errs = append(errs, c.stopProc(name))
	}
	c.killStrays()
	if err := unmountUnder(c.Dir); err != nil {
		errs = append(errs, err)
	} else if err := os.RemoveAll(c.Dir); err != nil {
		errs = append(errs, err)
	}
	if c.unlock != nil {
		c.unlock()
		c.unlock = nil
	}
	return errors.Join(errs...)
}

// deletePods deletes every pod with a short grace and waits until the API
// holds none (the kubelet has stopped their containers).
func (c *Cluster) deletePods(ctx context.Context) error {
	pods, err := c.Client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("listing pods: %w", err)
	}
	grace := int64(1)
	for _, p := range pods.Items {
		err := c.Client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &grace})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting pod %s/%s: %w", p.Namespace, p.Name, err)
		}
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return c.poll(wctx, "every pod deleted", func(ctx context.Context) bool {
		l, err := c.Client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
		return err == nil && len(l.Items) == 0
	})
}

// running reports whether the named process was started and runs.
func (c *Cluster) running(name string) bool {
	i := slices.IndexFunc(c.procs, func(p *proc) bool { return p.name == name })
	if i < 0 {
		return false
	}
	select {
	case <-c.procs[i].done:
		return false
	default:
		return true
	}
}

// stopProc ends one process: SIGTERM, then after a bound SIGKILL to its
// process group.
func (c *Cluster) stopProc(name string) error {
	i := slices.IndexFunc(c.procs, func(p *proc) bool { return p.name == name })
	if i < 0 {
		return nil
	}
	p := c.procs[i]
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	var err error
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		err = fmt.Errorf("%s did not stop on SIGTERM", name)
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
	return err
}

// removeContainers kills and removes every task and container left in
// containerd's k8s.io namespace (the kubelet is gone).
func (c *Cluster) removeContainers(ctx context.Context) {
	ctr := func(args ...string) string {
		out, _ := exec.CommandContext(ctx, Ctr, append([]string{"-a", c.containerdSock(), "-n", "k8s.io"}, args...)...).Output()
		return string(out)
	}
	tasks := strings.Fields(ctr("tasks", "ls", "-q"))
	for _, t := range tasks {
		ctr("tasks", "kill", "--all", "-s", "SIGKILL", t)
	}
	for _, t := range tasks {
		ctr("tasks", "rm", "-f", t)
	}
	for _, id := range strings.Fields(ctr("containers", "ls", "-q")) {
		ctr("containers", "rm", id)
	}
}

// killStrays kills every process whose command line names the cluster's
// directory (containerd's shims outlive containerd).
func (c *Cluster) killStrays() {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), c.Dir+"/") {
			continue
		}
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(filepath.Dir(f)), "%d", &pid); err == nil && pid != os.Getpid() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// unmountUnder detaches every mount under dir (containerd's rootfs and
// shm mounts), deepest first, and fails if any stays.
func unmountUnder(dir string) error {
	ms := mountsUnder(dir)
	for i := len(ms) - 1; i >= 0; i-- {
		_ = detach(ms[i])
	}
	if ms := mountsUnder(dir); len(ms) > 0 {
		return fmt.Errorf("mounts left under %s, not removing it: %v", dir, ms)
	}
	return nil
}

// mountsUnder lists this mount namespace's mount points under dir, in
// mount order.
func mountsUnder(dir string) []string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		mp := strings.ReplaceAll(fields[4], `\040`, " ")
		if strings.HasPrefix(mp, dir+"/") {
			out = append(out, mp)
		}
	}
	return out
}
