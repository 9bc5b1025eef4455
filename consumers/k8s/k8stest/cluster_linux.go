package k8stest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Release is the Kubernetes release of the cluster's kube-apiserver and
// kubelet (scripts/k8s/build pins it).
const Release = "v1.34.4"

// NodeName is the one node's name: pods set spec.nodeName to it.
const NodeName = "localhost"

// The Debian programs the cluster runs.
const (
	Etcd       = "/usr/bin/etcd"
	Containerd = "/usr/bin/containerd"
	Ctr        = "/usr/bin/ctr"
	Runc       = "/usr/sbin/runc"
	Unshare    = "/usr/bin/unshare"
)

// Cluster is a running private one-node cluster.
type Cluster struct {
	// Dir holds its PKI, configuration, state, sockets and logs.
	Dir string
	// Kubeconfig is the path of an administrator's kubeconfig
	// (system:masters).
	Kubeconfig string
	// Server is the API server's URL (https://127.0.0.1:PORT).
	Server string
	// Config is the administrator's client configuration.
	Config *rest.Config
	// Client is a clientset on Config.
	Client kubernetes.Interface
	// Timings says how long the start took.
	Timings Timings

	bin            string // the kube-apiserver and kubelet binaries' folder
	pki            *pki
	nodeKubeconfig string
	etcdPort       int
	etcdPeerPort   int
	apiPort        int
	kubeletPort    int
	procs          []*proc // started, in order
	unlock         func()
}

// Timings are the durations of a cluster's start, from its first process.
type Timings struct {
	// APIReady is when the API server first answered /readyz.
	APIReady time.Duration
	// NodeReady is when the node first reported Ready.
	NodeReady time.Duration
}

// proc is one of the cluster's processes.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
}

var shared struct {
	mu  sync.Mutex
	c   *Cluster
	err error
}

// startTimeout bounds a cluster's start once it holds the host's lock.
const startTimeout = 3 * time.Minute

// lockWait bounds the wait for another test process's cluster to stop
// (a package's whole run, in make test).
const lockWait = 30 * time.Minute

// Shared returns this process's cluster, starting it on first use. It
// skips tb (fails it under CI) when the cluster cannot run here.
func Shared(tb testing.TB) *Cluster {
	tb.Helper()
	Require(tb)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.c == nil && shared.err == nil {
		shared.c, shared.err = Start(context.Background())
		if shared.err == nil {
			tb.Logf("k8stest: cluster %s up: API server ready after %v, node Ready after %v",
				Release, shared.c.Timings.APIReady.Round(time.Millisecond), shared.c.Timings.NodeReady.Round(time.Millisecond))
		}
	}
	if shared.err != nil {
		tb.Fatalf("k8stest: %v", shared.err)
	}
	return shared.c
}

// StartTest starts a cluster of tb's own, stopped when tb ends (for test
// packages whose TestMain does not call Stop). It skips tb (fails it
// under CI) when the cluster cannot run here.
func StartTest(tb testing.TB) *Cluster {
	tb.Helper()
	Require(tb)
	c, err := Start(context.Background())
	if err != nil {
		tb.Fatalf("k8stest: %v", err)
	}
	tb.Cleanup(func() {
		if err := c.Stop(); err != nil {
			tb.Errorf("k8stest: %v", err)
		}
	})
	tb.Logf("k8stest: cluster %s up: node Ready after %v", Release, c.Timings.NodeReady.Round(time.Millisecond))
	return c
}

// Stop ends the shared cluster, if one was started, and removes its
// directory. Call it from TestMain after m.Run.
func Stop() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.c == nil {
		return nil
	}
	err := shared.c.Stop()
	shared.c = nil
	return err
}

// BinDir is the folder of the built kube-apiserver and kubelet:
// $PTYSEAM_K8S_BIN, else the cache folder scripts/k8s/build.sh writes
// (${XDG_CACHE_HOME:-$HOME/.cache}/ptyseam/k8s/RELEASE/bin), looked for
// also under the user's home from the password database, since test
// processes run with a private HOME (testenv.PrivateHome).
func BinDir() string {
	if d := os.Getenv("PTYSEAM_K8S_BIN"); d != "" {
		return d
	}
	var caches []string
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
		caches = append(caches, x)
	}
	if home, err := os.UserHomeDir(); err == nil {
		caches = append(caches, filepath.Join(home, ".cache"))
	}
	if u, err := user.Current(); err == nil && u.HomeDir != "" {
		caches = append(caches, filepath.Join(u.HomeDir, ".cache"))
	}
	if len(caches) == 0 {
		return ""
	}
	for _, c := range caches {
		d := filepath.Join(c, "ptyseam", "k8s", Release, "bin")
		if _, err := os.Stat(filepath.Join(d, "kube-apiserver")); err == nil {
			return d
		}
	}
	return filepath.Join(caches[0], "ptyseam", "k8s", Release, "bin")
}

// Missing returns what the cluster needs and this machine lacks, each
// with what to do about it ("" when nothing is missing).
func Missing() string {
	if os.Geteuid() != 0 {
		return "k8s tests need root (to run containerd and the kubelet)"
	}
	for _, p := range []struct{ path, pkg string }{
		{Etcd, "etcd-server"}, {Containerd, "containerd (docker.io)"}, {Ctr, "containerd (docker.io)"},
		{Runc, "runc"}, {Unshare, "util-linux"}, {Busybox, "busybox-static"}, {BashStatic, "bash-static"},
	} {
		if _, err := os.Stat(p.path); err != nil {
			return fmt.Sprintf("%s is not installed (apt-get install %s; scripts/deps.sh does)", p.path, p.pkg)
		}
	}
	for _, b := range []string{"kube-apiserver", "kubelet"} {
		if _, err := os.Stat(filepath.Join(BinDir(), b)); err != nil {
			return fmt.Sprintf("%s is not built in %s (run scripts/k8s/build.sh; make deps does)", b, BinDir())
		}
	}
	return ""
}

// Require skips tb (or fails it when $CI is set) unless the cluster can
// run here (Missing).
func Require(tb testing.TB) {
	tb.Helper()
	m := Missing()
	if m == "" {
		return
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("consumers/k8s/k8stest: %s", m)
	}
	tb.Skipf("consumers/k8s/k8stest: %s", m)
}

// Start runs a private cluster and waits until its node is Ready and its
// images are imported. The caller must Stop it. Clusters of concurrent
// processes take turns: Start first waits for the host's lock (up to
// lockWait, whatever ctx says), then ctx and startTimeout bound the
// start.
func Start(ctx context.Context) (*Cluster, error) {
	if m := Missing(); m != "" {
		return nil, errors.New(m)
	}
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lockWait)
	unlock, err := lockHost(lctx)
	cancel()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("/tmp", "ptyseam-k8stest-")
	if err != nil {
		unlock()
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: BinDir(), unlock: unlock}
	ctx, cancel = context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := c.start(ctx); err != nil {
		return nil, errors.Join(err, c.Stop())
	}
	return c, nil
}

func (c *Cluster) start(ctx context.Context) error {
	ports, err := freePorts(4)
	if err != nil {
		return err
	}
	c.etcdPort, c.etcdPeerPort, c.apiPort, c.kubeletPort = ports[0], ports[1], ports[2], ports[3]
	c.Server = "https://127.0.0.1:" + strconv.Itoa(c.apiPort)
	if c.pki, err = newPKI(c.path("pki")); err != nil {
		return fmt.Errorf("PKI: %w", err)
	}
	if c.Kubeconfig, err = c.pki.kubeconfig("admin", c.Server); err != nil {
		return err
	}
	if c.nodeKubeconfig, err = c.pki.kubeconfig("node", c.Server); err != nil {
		return err
	}
	if c.Config, err = clientcmd.BuildConfigFromFlags("", c.Kubeconfig); err != nil {
		return err
	}
	c.Config.QPS, c.Config.Burst = 200, 400
	// Inline the certificates: client-go watches certificate files with
	// goroutines that outlive every client (a leak check sees them).
	if err := inlineTLS(c.Config); err != nil {
		return err
	}
	if c.Client, err = kubernetes.NewForConfig(c.Config); err != nil {
		return err
	}
	for _, f := range []struct{ name, text string }{
		{"containerd.toml", c.containerdConfig()}, {"kubelet.yaml", c.kubeletConfig()},
		{"cni/net.d/10-placeholder.conflist", placeholderCNI},
	} {
		if err := os.MkdirAll(filepath.Dir(c.path(f.name)), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(c.path(f.name), []byte(f.text), 0o600); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(c.path("cni/bin"), 0o700); err != nil {
		return err
	}
	t0 := time.Now()
	if err := c.run("etcd", Etcd, c.etcdArgs()...); err != nil {
		return err
	}
	if err := c.run("containerd", Containerd, "--config", c.path("containerd.toml")); err != nil {
		return err
	}
	if err := c.run("kube-apiserver", filepath.Join(c.bin, "kube-apiserver"), c.apiserverArgs()...); err != nil {
		return err
	}
	if err := c.waitContainerd(ctx); err != nil {
		return err
	}
	if err := c.makeImages(); err != nil {
		return err
	}
	if err := c.waitAPI(ctx); err != nil {
		return err
	}
	c.Timings.APIReady = time.Since(t0)
	script, err := c.kubeletScript()
	if err != nil {
		return err
	}
	if err := c.run("kubelet", Unshare, "-m", "--propagation", "private", "sh", "-c", script); err != nil {
		return err
	}
	if err := c.waitNode(ctx); err != nil {
		return err
	}
	c.Timings.NodeReady = time.Since(t0)
	return nil
}

// path is a file or folder of the cluster's directory.
func (c *Cluster) path(name string) string { return filepath.Join(c.Dir, filepath.FromSlash(name)) }

func (c *Cluster) containerdSock() string { return c.path("containerd.sock") }

// run starts one of the cluster's processes, its output in name.log.
func (c *Cluster) run(name, path string, args ...string) error {
	logf, err := os.Create(c.path(name + ".log"))
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Dir = c.Dir
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	c.procs = append(c.procs, p)
	return nil
}

// LogTail returns the last bytes of one process's log ("etcd",
// "containerd", "kube-apiserver", "kubelet").
func (c *Cluster) LogTail(name string) string {
	b, _ := os.ReadFile(c.path(name + ".log"))
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

// exited returns the name of a cluster process that has exited, or "".
func (c *Cluster) exited() string {
	for _, p := range c.procs {
		select {
		case <-p.done:
			return p.name
		default:
		}
	}
	return ""
}

// poll calls ok every interval until it returns true, a process exits or
// ctx ends.
func (c *Cluster) poll(ctx context.Context, what string, ok func(ctx context.Context) bool) error {
	for {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		done := ok(cctx)
		cancel()
		if done {
			return nil
		}
		if name := c.exited(); name != "" {
			return fmt.Errorf("waiting for %s: %s exited: %s", what, name, c.LogTail(name))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (c *Cluster) waitContainerd(ctx context.Context) error {
	return c.poll(ctx, "containerd", func(ctx context.Context) bool {
		return exec.CommandContext(ctx, Ctr, "-a", c.containerdSock(), "version").Run() == nil
	})
}

func (c *Cluster) waitAPI(ctx context.Context) error {
	return c.poll(ctx, "the API server", func(ctx context.Context) bool {
		_, err := c.Client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		return err == nil
	})
}

func (c *Cluster) waitNode(ctx context.Context) error {
	return c.poll(ctx, "node "+NodeName+" Ready", func(ctx context.Context) bool {
		n, err := c.Client.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
		if err != nil {
			return false
		}
		for _, cond := range n.Status.Conditions {
			if cond.Type == corev1.NodeReady {
				return cond.Status == corev1.ConditionTrue
			}
		}
		return false
	})
}

// freePorts returns n loopback ports free now.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// inlineTLS replaces cfg's certificate, key and CA files by their
// contents.
func inlineTLS(cfg *rest.Config) error {
	tls := &cfg.TLSClientConfig
	for _, f := range []struct {
		path *string
		data *[]byte
	}{{&tls.CertFile, &tls.CertData}, {&tls.KeyFile, &tls.KeyData}, {&tls.CAFile, &tls.CAData}} {
		if *f.path == "" {
			continue
		}
		b, err := os.ReadFile(*f.path)
		if err != nil {
			return err
		}
		*f.data, *f.path = b, ""
	}
	return nil
}
