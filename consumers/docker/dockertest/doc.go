// Package dockertest starts a private Docker engine (Debian's dockerd) for
// integration tests and builds a small test image from the host's own
// programs, without any registry or network.
//
// The daemon gets its own data root, exec root (with its own containerd)
// and unix socket under a fresh directory in /tmp, no bridge and no
// iptables rules, so that test packages running at once, and a system
// dockerd, do not meet. One daemon serves a test process: [Shared]
// starts it on first use and [Stop] (call it from TestMain) ends it and
// removes its directory.
//
// It needs root and /usr/sbin/dockerd (apt-get install docker.io). Without
// them, Shared skips the test, or fails it when the environment variable CI
// is set, so that a CI run cannot pass by skipping.
package dockertest
