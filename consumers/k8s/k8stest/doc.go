// Package k8stest starts a private one-node Kubernetes cluster for
// integration tests, offline: etcd and containerd (with runc) from
// Debian's packages, and kube-apiserver and kubelet built from
// k8s.io/kubernetes at the release pinned in scripts/k8s/build
// (scripts/k8s/build.sh caches them by release).
//
// The cluster listens on loopback only, with its own PKI, ports, state
// and containerd socket under a fresh directory in /tmp; the kubelet runs
// in a private mount namespace where the three sysctls it insists on are
// shadowed by plain files, so the host's settings are never rewritten.
// There is no scheduler, controller manager or network plugin: pods set
// spec.nodeName ([NodeName]) and use the host network. Two images are
// made from host files and imported into containerd without a registry:
// a pause image and a shell image of busybox-static and bash-static
// ([ShellImage]); a pod that mounts the host's /usr read-only at /usr
// ([HostUsr]) also has python3 and the host's programs.
//
// One cluster serves a test process: [Shared] starts it on first use and
// [Stop] (call it from TestMain) deletes its pods, ends every process by
// pid and removes its directory. Clusters of concurrent test processes
// take turns (a lock file), since a kubelet owns the host's kubepods
// cgroups.
//
// It needs root, etcd, containerd, ctr, runc, unshare, busybox-static and
// bash-static (scripts/deps.sh installs them) and the built binaries. When
// one is missing, Shared skips the test, or fails it when the environment
// variable CI is set, so that a CI run cannot pass by skipping.
//
// Shipped code never imports this package: only _test.go files do.
package k8stest
