package dockertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/moby/moby/client"
)

// Dockerd is the engine binary.
const Dockerd = "/usr/sbin/dockerd"

// Daemon is a running private engine.
type Daemon struct {
	// Host is its address for a client ("unix:///tmp/.../docker.sock").
	Host string
	// Dir holds its data root, exec root, socket and log.
	Dir string
	// Client talks to it.
	Client *client.Client
	// Image is the test image: bash, sh, coreutils and procps from the
	// host (see BuildImage).
	Image string

	cmd  *exec.Cmd
	done chan struct{}

	stopWatch context.CancelFunc
	watching  sync.WaitGroup
	hung      atomic.Pointer[string] // why the watchdog ended the daemon
}

var shared struct {
	mu  sync.Mutex
	d   *Daemon
	err error
}

// dirPrefix names every daemon directory in /tmp.
const dirPrefix = "ptyseam-dockerd-"

// startTimeout bounds the daemon's start and the image build.
const startTimeout = 2 * time.Minute

// Shared returns this process's daemon, starting it and building the test
// image on first use. It skips tb (fails it under CI) when the engine
// cannot run here.
func Shared(tb testing.TB) *Daemon {
	tb.Helper()
	Require(tb)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.d == nil && shared.err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		shared.d, shared.err = Start(ctx)
	}
	if shared.err != nil {
		tb.Fatalf("dockertest: %v", shared.err)
	}
	if why := shared.d.Hung(); why != "" {
		tb.Fatalf("dockertest: the shared daemon is gone: %s (its goroutine stacks are on stderr)", why)
	}
	return shared.d
}

// StartTest starts a daemon of tb's own, stopped when tb ends (for test
// packages whose TestMain cannot call Stop). It skips tb (fails it under
// CI) when the engine cannot run here.
func StartTest(tb testing.TB) *Daemon {
	tb.Helper()
	Require(tb)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	d, err := Start(ctx)
	if err != nil {
		tb.Fatalf("dockertest: %v", err)
	}
	tb.Cleanup(func() {
		if err := d.Stop(); err != nil {
			tb.Errorf("dockertest: %v", err)
		}
	})
	return d
}

// Stop ends the shared daemon, if one was started, and removes its
// directory. Call it from TestMain after m.Run.
func Stop() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.d == nil {
		return nil
	}
	err := shared.d.Stop()
	shared.d = nil
	return err
}

// Require skips tb (or fails it when $CI is set) unless dockerd can run
// here: the binary exists and the process is root.
func Require(tb testing.TB) {
	tb.Helper()
	fail := tb.Skipf
	if os.Getenv("CI") != "" {
		fail = tb.Fatalf
	}
	if _, err := os.Stat(Dockerd); err != nil {
		fail("consumers/docker/dockertest: %s is not installed (apt-get install docker.io): %v", Dockerd, err)
	}
	if os.Geteuid() != 0 {
		fail("consumers/docker/dockertest: docker tests need root (to run dockerd)")
	}
}

// Start runs a private dockerd, waits until it answers, and imports the
// test image. The caller must Stop it.
func Start(ctx context.Context) (*Daemon, error) {
	if err := sweepOnce(); err != nil {
		return nil, fmt.Errorf("removing what dead test processes left: %w", err)
	}
	dir, err := os.MkdirTemp("/tmp", dirPrefix)
	if err != nil {
		return nil, err
	}
	if err := writeOwner(dir); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	sock := filepath.Join(dir, "docker.sock")
	logf, err := os.Create(filepath.Join(dir, "dockerd.log"))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	defer logf.Close()
	d := &Daemon{Host: "unix://" + sock, Dir: dir, done: make(chan struct{})}
	d.cmd = exec.Command(Dockerd,
		"--data-root", filepath.Join(dir, "data"),
		"--exec-root", filepath.Join(dir, "exec"),
		"--pidfile", filepath.Join(dir, "dockerd.pid"),
		"--host", d.Host,
		"--bridge", "none", "--iptables=false", "--ip-masq=false", "--userland-proxy=false",
		"--log-level", "warn",
		// No container logs: sessions read their containers' output
		// through attach streams, and the json-file driver would
		// encode and write every byte again (megabytes per test).
		"--log-driver", "none",
	)
	d.cmd.Stdout, d.cmd.Stderr = logf, logf
	d.cmd.SysProcAttr = daemonProcAttr()
	if err := d.cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", Dockerd, err)
	}
	go func() { _ = d.cmd.Wait(); close(d.done) }()
	fail := func(err error) (*Daemon, error) {
		serr := d.Stop()
		return nil, errors.Join(err, serr)
	}
	if d.Client, err = client.New(client.WithHost(d.Host)); err != nil {
		return fail(err)
	}
	for {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		_, err := d.Client.Ping(pctx, client.PingOptions{NegotiateAPIVersion: true})
		cancel()
		if err == nil {
			break
		}
		select {
		case <-d.done:
			return fail(fmt.Errorf("dockerd exited at start: %s", d.logTail()))
		case <-ctx.Done():
			return fail(fmt.Errorf("dockerd did not answer on %s: %v; log: %s", sock, err, d.logTail()))
		case <-time.After(50 * time.Millisecond):
		}
	}
	if d.Image, err = BuildImage(ctx, d.Client, "ptyseam-test:latest"); err != nil {
		return fail(err)
	}
	d.startWatch(d.Client, os.Stderr)
	return d, nil
}

var sweep struct {
	once sync.Once
	err  error
}

// sweepOnce runs Sweep at this process's first Start: daemons its own
// tests start later are owned by a live process.
func sweepOnce() error {
	sweep.once.Do(func() { sweep.err = Sweep() })
	return sweep.err
}

// Stop removes every container, ends the daemon (and its containerd),
// checks that nothing stays mounted under its directory, and removes it.
func (d *Daemon) Stop() error {
	if d.stopWatch != nil {
		d.stopWatch()
		d.watching.Wait()
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	var errs []error
	if why := d.Hung(); why != "" {
		// The watchdog killed what the daemon started; the engine
		// removes no container cgroups now.
		errs = append(errs, fmt.Errorf("dockertest: the daemon was killed hung: %s", why))
		removeCgroups(d.Dir)
	} else if d.Client != nil {
		if list, err := d.Client.ContainerList(ctx, client.ContainerListOptions{All: true}); err == nil {
			for _, c := range list.Items {
				_, _ = d.Client.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true})
			}
		}
	}
	if d.Client != nil {
		_ = d.Client.Close()
	}
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-ctx.Done():
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
		<-d.done
		errs = append(errs, fmt.Errorf("dockerd did not stop on SIGTERM: %s", d.logTail()))
	}
	// dockerd's containerd and shims run in its process group.
	_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
	if m := mountsUnder(d.Dir); len(m) > 0 {
		for i := len(m) - 1; i >= 0; i-- {
			_ = detachMount(m[i])
		}
		if m := mountsUnder(d.Dir); len(m) > 0 {
			return errors.Join(append(errs, fmt.Errorf("mounts left under %s, not removing it: %v", d.Dir, m))...)
		}
	}
	if err := os.RemoveAll(d.Dir); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (d *Daemon) logTail() string {
	b, _ := os.ReadFile(filepath.Join(d.Dir, "dockerd.log"))
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
