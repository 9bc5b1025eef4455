//go:build !linux

package dockertest

import "syscall"

// daemonProcAttr starts dockerd in its own process group. dockerd runs on
// Linux only; elsewhere Start fails when the binary is missing.
func daemonProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// detachMount unmounts path.
func detachMount(path string) error { return syscall.Unmount(path, 0) }
