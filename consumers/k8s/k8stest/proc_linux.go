package k8stest

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
)

// procAttr starts a cluster process in its own process group, ended when
// the test process dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// detach unmounts path lazily.
func detach(path string) error { return syscall.Unmount(path, syscall.MNT_DETACH) }

// lockPath is the host-wide lock one cluster at a time holds: a kubelet
// owns the host's kubepods cgroups.
const lockPath = "/tmp/ptyseam-k8stest.lock"

// lockHost takes the host's cluster lock, waiting for ctx.
func lockHost(ctx context.Context) (func(), error) {
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = f.Close() }, nil
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("waiting for %s (another test process runs a cluster): %w", lockPath, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
