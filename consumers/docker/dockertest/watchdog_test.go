//go:build linux

package dockertest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// holdingSocket accepts connections on a unix socket and never answers
// them, as an engine stuck in its locks does.
func holdingSocket(t *testing.T) string {
	return "unix://" + testenv.SilentListener(t, "unix", filepath.Join(t.TempDir(), "held.sock"))
}

// An engine that leaves the watchdog's info request unanswered for
// hangAfter is reported with dockerd's goroutine stacks and killed with
// its containers, so that calls waiting on it fail at once; Stop then
// fails, naming the hang, and leaves nothing behind.
func TestWatchdogEndsAHungDaemon(t *testing.T) {
	Require(t)
	defer func(h, p time.Duration) { hangAfter, probeEvery = h, p }(hangAfter, probeEvery)
	hangAfter, probeEvery = 2*time.Second, 100*time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	d, err := Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = d.Stop()
		}
	}()
	c, err := d.Client.ContainerCreate(ctx, client.ContainerCreateOptions{
		Config:     &container.Config{Image: d.Image, Cmd: []string{"sleep", "100000"}},
		HostConfig: &container.HostConfig{NetworkMode: "none"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Client.ContainerStart(ctx, c.ID, client.ContainerStartOptions{}); err != nil {
		t.Fatal(err)
	}
	ins, err := d.Client.ContainerInspect(ctx, c.ID, client.ContainerInspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	initPid := ins.Container.State.Pid
	initStart, err := procStart(initPid)
	if err != nil {
		t.Fatal(err)
	}

	// Watch through a socket that never answers.
	d.stopWatch()
	d.watching.Wait()
	held, err := client.New(client.WithHost(holdingSocket(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	var report bytes.Buffer
	d.startWatch(held, &report)
	select {
	case <-d.done:
	case <-time.After(time.Minute):
		t.Fatal("the watchdog did not end the daemon within a minute")
	}
	d.watching.Wait()
	if why := d.Hung(); !strings.Contains(why, "answered no info request for 2s") {
		t.Fatalf("Hung() = %q", why)
	}
	if alive(initPid, initStart) {
		t.Errorf("the container's init %d outlived the hung daemon", initPid)
	}
	if left := dirProcs(d.Dir); len(left) > 0 {
		t.Errorf("processes of the hung daemon still run: %v", left)
	}
	for _, want := range []string{"killed it so that the calls waiting on it fail (all of it ended)", "goroutines blocked for minutes:\n(no goroutine has waited a minute)"} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, report.String())
		}
	}
	start := time.Now()
	if _, err := d.Client.Ping(ctx, client.PingOptions{}); err == nil {
		t.Error("the killed daemon answered a ping")
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Errorf("a call to the killed daemon took %v to fail", waited)
	}
	stopped = true
	err = d.Stop()
	if err == nil || !strings.Contains(err.Error(), "the daemon was killed hung") {
		t.Fatalf("Stop: %v; want the hang named", err)
	}
	if _, serr := os.Stat(d.Dir); serr == nil {
		t.Errorf("Stop left %s", d.Dir)
	}
}

// SIGUSR1 makes a live dockerd write its goroutine stacks, which
// dumpStacks returns.
func TestDumpStacksOfALiveDaemon(t *testing.T) {
	d := StartTest(t)
	stacks, err := d.dumpStacks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stacks, "goroutine ") || !strings.Contains(stacks, "github.com/docker/docker/") {
		t.Fatalf("dockerd's stacks: %.500s", stacks)
	}
}
