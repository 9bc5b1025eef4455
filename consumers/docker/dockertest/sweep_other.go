//go:build !linux

package dockertest

// writeOwner does nothing: dockerd runs on Linux only.
func writeOwner(string) error { return nil }

// Sweep does nothing: dockerd runs on Linux only.
func Sweep() error { return nil }

// killDaemonProcs does nothing: dockerd runs on Linux only.
func killDaemonProcs(string) error { return nil }

// removeCgroups does nothing: dockerd runs on Linux only.
func removeCgroups(string) {}
