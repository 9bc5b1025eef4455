package k8stest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// containerdConfig is containerd's configuration: its own root, state,
// socket and runc root under the cluster's directory, the CRI plugin with
// runc and cgroupfs, restrict_oom_score_adj (a VM without
// CAP_SYS_RESOURCE cannot apply the kubelet's -998), and a private CNI
// folder whose placeholder network makes the runtime report its network
// ready (pods use the host network).
func (c *Cluster) containerdConfig() string {
	return fmt.Sprintf(`version = 2
root = %[1]q
state = %[2]q
[grpc]
  address = %[3]q
[ttrpc]
  address = ""
[debug]
  address = ""
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = %[4]q
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = %[5]q
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = %[6]q
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = %[7]q
    conf_dir = %[8]q
`, c.path("containerd/root"), c.path("containerd/state"), c.containerdSock(), c.path("containerd/opt"),
		PauseImage, c.path("runc"), c.path("cni/bin"), c.path("cni/net.d"))
}

// placeholderCNI is the one network configuration in the private CNI
// folder; no pod uses it.
const placeholderCNI = `{"cniVersion":"0.4.0","name":"k8stest-placeholder","plugins":[{"type":"loopback"}]}`

// kubeletConfig is the kubelet's configuration: loopback ports, x509
// client authentication, cgroup v1 allowed (failCgroupV1: false; 1.35
// and later refuse it by default), cgroupfs, no swap check, no image
// garbage collection, and pod logs under the cluster's directory.
func (c *Cluster) kubeletConfig() string {
	return fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
port: %d
readOnlyPort: 0
healthzPort: 0
tlsCertFile: %q
tlsPrivateKeyFile: %q
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: %q}
authorization: {mode: AlwaysAllow}
cgroupDriver: cgroupfs
containerRuntimeEndpoint: %q
failSwapOn: false
failCgroupV1: false
protectKernelDefaults: true
makeIPTablesUtilChains: false
resolvConf: ""
podLogsDir: %q
evictionHard: {memory.available: "100Mi"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
syncFrequency: 10s
fileCheckFrequency: 20s
nodeStatusReportFrequency: 10s
registerNode: true
maxPods: 200
`, c.kubeletPort, c.pki.path("kubelet.crt"), c.pki.path("kubelet.key"), c.pki.path("ca.crt"),
		"unix://"+c.containerdSock(), c.path("pod-logs"))
}

// etcdArgs runs etcd on loopback ports with its data in the cluster's
// directory.
func (c *Cluster) etcdArgs() []string {
	client := "http://127.0.0.1:" + strconv.Itoa(c.etcdPort)
	peer := "http://127.0.0.1:" + strconv.Itoa(c.etcdPeerPort)
	return []string{"--name", "k8stest", "--data-dir", c.path("etcd"),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "k8stest=" + peer, "--listen-metrics-urls", "",
		"--logger", "zap", "--log-level", "warn"}
}

// apiserverArgs runs the API server on loopback: RBAC and Node
// authorization, no ServiceAccount admission (no controller manager
// mints tokens or default accounts), no endpoint reconciler, and the
// kubelet reached by its host name.
func (c *Cluster) apiserverArgs() []string {
	p := c.pki.path
	return []string{
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port=" + strconv.Itoa(c.apiPort),
		"--etcd-servers=http://127.0.0.1:" + strconv.Itoa(c.etcdPort),
		"--tls-cert-file=" + p("apiserver.crt"), "--tls-private-key-file=" + p("apiserver.key"),
		"--client-ca-file=" + p("ca.crt"),
		"--kubelet-client-certificate=" + p("apiserver-kubelet-client.crt"), "--kubelet-client-key=" + p("apiserver-kubelet-client.key"),
		"--kubelet-certificate-authority=" + p("ca.crt"), "--kubelet-preferred-address-types=Hostname",
		"--service-account-issuer=https://kubernetes.default.svc", "--service-account-key-file=" + p("sa.pub"),
		"--service-account-signing-key-file=" + p("sa.key"),
		"--service-cluster-ip-range=10.96.0.0/16", "--endpoint-reconciler-type=none",
		"--authorization-mode=Node,RBAC", "--disable-admission-plugins=ServiceAccount",
		"--allow-privileged=true", "--profiling=false",
	}
}

// The three sysctls the kubelet checks with protectKernelDefaults, and
// the values it wants: shadowed in its mount namespace by plain files.
var kubeletSysctls = []struct{ proc, value string }{
	{"/proc/sys/vm/overcommit_memory", "1"},
	{"/proc/sys/kernel/panic", "10"},
	{"/proc/sys/kernel/panic_on_oops", "1"},
}

// kubeletScript is what unshare runs in the kubelet's private mount
// namespace: bind the shadow files over the sysctls, then exec the
// kubelet.
func (c *Cluster) kubeletScript() (string, error) {
	s := "set -e; "
	for i, sc := range kubeletSysctls {
		f := c.path("sysctl/" + strconv.Itoa(i))
		if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
			return "", err
		}
		if err := os.WriteFile(f, []byte(sc.value+"\n"), 0o600); err != nil {
			return "", err
		}
		s += fmt.Sprintf("mount --bind %q %q; ", f, sc.proc)
	}
	s += fmt.Sprintf("exec %q --config=%q --kubeconfig=%q --hostname-override=%s --root-dir=%q --cert-dir=%q -v=1",
		filepath.Join(c.bin, "kubelet"), c.path("kubelet.yaml"), c.nodeKubeconfig, NodeName,
		c.path("kubelet"), c.path("kubelet-pki"))
	return s, nil
}
