//go:build linux

package dockertest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	"go.uber.org/goleak"
)

// helperEnv makes the test binary a daemon's owner that a test kills.
const helperEnv = "PTYSEAM_DOCKERTEST_OWNER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(ownDaemonUntilKilled())
	}
	code := m.Run()
	if err := Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = max(code, 1)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// ownDaemonUntilKilled starts a daemon and a container on it, prints the
// daemon's directory and the container's init pid, and waits to be
// killed.
func ownDaemonUntilKilled() int {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	d, err := Start(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c, err := d.Client.ContainerCreate(ctx, client.ContainerCreateOptions{
		Config:     &container.Config{Image: d.Image, Cmd: []string{"sleep", "100000"}},
		HostConfig: &container.HostConfig{NetworkMode: "none", Init: new(true)},
	})
	if err == nil {
		_, err = d.Client.ContainerStart(ctx, c.ID, client.ContainerStartOptions{})
	}
	var ins client.ContainerInspectResult
	if err == nil {
		ins, err = d.Client.ContainerInspect(ctx, c.ID, client.ContainerInspectOptions{})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		_ = d.Stop()
		return 1
	}
	fmt.Printf("%s %d\n", d.Dir, ins.Container.State.Pid)
	select {}
}

// killedOwner is what a killed owner left: its daemon's directory and
// its container's init.
type killedOwner struct {
	dir   string
	pid   int
	start uint64
}

// startAndKillOwner runs a test process that starts a daemon and a
// container, then kills it with SIGKILL, and its dockerd too when
// killDaemon is set (as when the daemon cannot finish its own shutdown:
// its containerd shims and containers then run on).
func startAndKillOwner(t *testing.T, killDaemon bool) killedOwner {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var k killedOwner
	if _, err := fmt.Fscanf(bufio.NewReader(out), "%s %d\n", &k.dir, &k.pid); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the owner did not start its daemon: %v", err)
	}
	if k.start, err = procStart(k.pid); err != nil {
		t.Fatalf("the container's init %d: %v", k.pid, err)
	}
	var dockerd int
	if killDaemon {
		b, err := os.ReadFile(k.dir + "/dockerd.pid")
		if _, serr := fmt.Sscan(string(b), &dockerd); err != nil || serr != nil {
			t.Fatalf("dockerd's pid file: %v %v", err, serr)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	if killDaemon {
		_ = syscall.Kill(dockerd, syscall.SIGKILL)
	}
	_ = cmd.Wait()
	if _, err := os.Stat(k.dir); err != nil {
		t.Fatalf("the dead owner's daemon directory: %v", err)
	}
	t.Logf("left by the killed owner (daemon killed too: %v): directory %s, %d processes naming it, container init alive: %v",
		killDaemon, k.dir, len(dirProcs(k.dir)), alive(k.pid, k.start))
	return k
}

// A test process killed with SIGKILL while it owns a daemon with a
// running container (as the go test timeout kills one) leaves that
// daemon's directory, and, when the daemon dies too, its containerd
// shim and container; the next Start on the host removes all of it, and
// a sweep leaves a live owner's daemon alone.
func TestStartSweepsDeadOwnersDaemon(t *testing.T) {
	Require(t)
	killed := []killedOwner{startAndKillOwner(t, false), startAndKillOwner(t, true)}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	d, err := Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := d.Stop(); err != nil {
			t.Error(err)
		}
	}()
	for _, k := range killed {
		if _, err := os.Stat(k.dir); err == nil {
			t.Errorf("the dead owner's directory %s is still there", k.dir)
		}
		if left := dirProcs(k.dir); len(left) > 0 {
			t.Errorf("processes of the dead owner's daemon still run: %v", left)
		}
		if alive(k.pid, k.start) {
			t.Errorf("the dead owner's container init %d still runs", k.pid)
		}
		if m := mountsUnder(k.dir); len(m) > 0 {
			t.Errorf("mounts left under %s: %v", k.dir, m)
		}
	}
	if err := Sweep(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Client.Ping(ctx, client.PingOptions{}); err != nil {
		t.Fatalf("a sweep touched a live owner's daemon: %v", err)
	}
}
