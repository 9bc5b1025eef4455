package dockertest

import "syscall"

// daemonProcAttr starts dockerd in its own process group (its containerd
// and shims join it) and ends it when the test process dies.
func daemonProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// detachMount unmounts path lazily (a busy mount goes once it is unused).
func detachMount(path string) error { return syscall.Unmount(path, syscall.MNT_DETACH) }
