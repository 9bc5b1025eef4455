//go:build unix

package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

func testHTTPServer(t *testing.T, backend BackendChoice) {
	f := newFixture(t, Config{Backend: backend})
	// Reserved, not picked free: no other process can take the port
	// before the server binds it, and the launch's check still finds it
	// free (nobody listens, and the server binds it with SO_REUSEADDR).
	port := testenv.ReservePort(t)
	req := LaunchRequest{
		Command: "python3",
		Args:    []string{"-u", "-m", "http.server", strconv.Itoa(port), "--bind", "127.0.0.1"},
		Cwd:     t.TempDir(),
		Title:   "web",
		Group:   "servers",
		Ports:   []int{port},
	}
	web := f.launch(t, req)
	if web.State != StateRunning || web.PID <= 0 || len(web.Warnings) != 0 || web.Backend != backend {
		t.Fatalf("launch: %+v", web)
	}
	want := fmt.Sprintf("http://127.0.0.1:%d", port)
	f.waitInfo(t, web.ID, "its URL detected", func(in Info) bool { return slices.Contains(in.Services, want) })

	resp, err := http.Get(want + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %s", resp.Status)
	}
	f.waitOutput(t, web.ID, `"GET / HTTP/1.1" 200`)

	// The same port again: a warning, and the second server fails.
	req.Title = "web2"
	dup := f.launch(t, req)
	if len(dup.Warnings) != 1 || !strings.Contains(dup.Warnings[0], "port "+strconv.Itoa(port)+" is already in use") {
		t.Fatalf("second launch warnings: %q", dup.Warnings)
	}
	end := f.waitEnded(t, dup.ID)
	if end.State != StateFailed || end.ExitCode == nil || *end.ExitCode == 0 {
		t.Fatalf("second server: %+v", end)
	}

	list, err := f.m.List(f.owner, ListFilter{Group: "servers", State: StateRunning})
	if err != nil || len(list) != 1 || list[0].ID != web.ID || list[0].Output.Lines == 0 || list[0].Output.Bytes == 0 {
		t.Fatalf("list running servers: %+v, %v", list, err)
	}
	stopped, err := f.m.Stop(context.Background(), f.owner, web.ID, StopOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stopped.State != StateStopped || stopped.StopReason != ReasonUser || stopped.EndedAt.IsZero() {
		t.Fatalf("stopped server: %+v", stopped)
	}
}

func TestHTTPServerOnPipes(t *testing.T) { testHTTPServer(t, BackendPipe) }

func TestGroupStop(t *testing.T) {
	f := newFixture(t, Config{DefaultGroup: "misc"})
	var ids []string
	for i := range 3 {
		r := sh("sleep 300")
		r.Group, r.Title = "batch", "sleeper "+strconv.Itoa(i)
		ids = append(ids, f.launch(t, r).ID)
	}
	other := f.launch(t, sh("sleep 300"))
	if other.Group != "misc" {
		t.Fatalf("default group: %q", other.Group)
	}
	infos, err := f.m.StopGroup(context.Background(), f.owner, "batch", StopOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 3 {
		t.Fatalf("stopped %d jobs", len(infos))
	}
	for i, in := range infos {
		if in.ID != ids[i] || in.State != StateStopped || in.StopReason != ReasonUser || in.Signal != "SIGTERM" {
			t.Errorf("job %d: %+v", i, in)
		}
	}
	if in, _ := f.m.Get(f.owner, other.ID); in.State != StateRunning {
		t.Fatalf("job of another group: %+v", in)
	}
	if _, err := f.m.StopGroup(context.Background(), f.owner, "", StopOptions{}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("empty group: %v", err)
	}
}

func TestTimeoutStopsJob(t *testing.T) {
	f := newFixture(t, Config{})
	r := sh("echo started; sleep 300")
	r.Timeout = 300 * time.Millisecond
	in := f.launch(t, r)
	end := f.waitEnded(t, in.ID)
	if end.State != StateStopped || end.StopReason != ReasonTimeout || end.StopCause != ReasonTimeout {
		t.Fatalf("after timeout: %+v", end)
	}
	if got := Outcome(end); got != "stopped (timeout, signal SIGTERM)" {
		t.Fatalf("outcome %q", got)
	}
}

func TestCrashAndSignalAreFailures(t *testing.T) {
	f := newFixture(t, Config{})
	crash := f.launch(t, sh("echo boom >&2; exit 2"))
	killed := f.launch(t, sh("kill -KILL $$"))
	external := f.launch(t, sh("sleep 300"))
	if _, err := f.m.Signal(context.Background(), f.owner, external.ID, core.SIGTERM); err != nil {
		t.Fatal(err)
	}
	c := f.waitEnded(t, crash.ID)
	if c.State != StateFailed || c.ExitCode == nil || *c.ExitCode != 2 || c.Signal != "" {
		t.Fatalf("crash: %+v", c)
	}
	k := f.waitEnded(t, killed.ID)
	if k.State != StateFailed || k.ExitCode != nil || k.Signal != "SIGKILL" {
		t.Fatalf("killed: %+v", k)
	}
	e := f.waitEnded(t, external.ID)
	if e.State != StateFailed || e.Signal != "SIGTERM" || e.StopReason != "" {
		t.Fatalf("signalled: %+v", e)
	}
	ok := f.launch(t, sh("exit 0"))
	if o := f.waitEnded(t, ok.ID); o.State != StateFinished || *o.ExitCode != 0 {
		t.Fatalf("clean exit: %+v", o)
	}
	if got := Outcome(c); got != "failed (exit 2)" {
		t.Fatalf("outcome %q", got)
	}
	if got := Outcome(k); got != "failed (signal SIGKILL)" {
		t.Fatalf("outcome %q", got)
	}
}

func TestStopForcedWhenTermIgnored(t *testing.T) {
	f := newFixture(t, Config{StopGrace: 100 * time.Millisecond})
	in := f.launch(t, sh(`trap "" TERM; echo ready; while :; do sleep 1; done`))
	f.waitOutput(t, in.ID, "ready")
	end, err := f.m.Stop(context.Background(), f.owner, in.ID, StopOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if end.State != StateStopped || end.StopReason != ReasonForced || end.StopCause != ReasonUser || end.Signal != "SIGKILL" {
		t.Fatalf("forced stop: %+v", end)
	}
	// Stopping again returns the same final record.
	again, err := f.m.Stop(context.Background(), f.owner, in.ID, StopOptions{})
	if err != nil || again.State != StateStopped || again.StopReason != ReasonForced {
		t.Fatalf("second stop: %+v, %v", again, err)
	}
	force := f.launch(t, sh("sleep 300"))
	fe, err := f.m.Stop(context.Background(), f.owner, force.ID, StopOptions{Force: true})
	if err != nil || fe.StopReason != ReasonForced || fe.Signal != "SIGKILL" {
		t.Fatalf("Force stop: %+v, %v", fe, err)
	}
}

func TestConcurrentStopsShareOne(t *testing.T) {
	f := newFixture(t, Config{})
	in := f.launch(t, sh("sleep 300"))
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := f.m.Stop(context.Background(), f.owner, in.ID, StopOptions{})
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if end, _ := f.m.Get(f.owner, in.ID); end.State != StateStopped {
		t.Fatalf("%+v", end)
	}
}

func TestOwnerIsolation(t *testing.T) {
	f := newFixture(t, Config{})
	in := f.launch(t, sh("sleep 300"))
	other := core.NewOwner("other")
	ctx := context.Background()
	if _, err := f.m.Read(other, in.ID, ReadRequest{}); !errors.Is(err, core.ErrForeignSession) {
		t.Errorf("foreign read: %v", err)
	}
	if _, err := f.m.Write(ctx, other, in.ID, "x"); !errors.Is(err, core.ErrForeignSession) {
		t.Errorf("foreign write: %v", err)
	}
	if _, err := f.m.Stop(ctx, other, in.ID, StopOptions{}); !errors.Is(err, core.ErrForeignSession) {
		t.Errorf("foreign stop: %v", err)
	}
	if _, err := f.m.Drop(ctx, other, DropRequest{ID: in.ID}); !errors.Is(err, core.ErrForeignSession) {
		t.Errorf("foreign drop: %v", err)
	}
	if l, err := f.m.List(other, ListFilter{}); err != nil || len(l) != 0 {
		t.Errorf("foreign list: %+v %v", l, err)
	}
	if _, err := f.m.Get(f.owner, "job_nosuchjob"); !errors.Is(err, core.ErrNoSession) {
		t.Errorf("unknown id: %v", err)
	}
	if in2, _ := f.m.Get(f.owner, in.ID); in2.State != StateRunning {
		t.Errorf("job disturbed: %+v", in2)
	}
}

func TestDrop(t *testing.T) {
	f := newFixture(t, Config{})
	ctx := context.Background()
	var dropped []string
	unsub := f.m.OnDropped(func(ev Event) { dropped = append(dropped, ev.ID) })
	run := f.launch(t, LaunchRequest{Command: "sleep", Args: []string{"300"}, Group: "g"})
	done := f.launch(t, LaunchRequest{Command: "true", Group: "g"})
	f.waitEnded(t, done.ID)
	if _, err := f.m.Drop(ctx, f.owner, DropRequest{ID: run.ID}); !errors.Is(err, ErrJobRunning) {
		t.Fatalf("drop running: %v", err)
	}
	res, err := f.m.Drop(ctx, f.owner, DropRequest{Group: "g"})
	if err != nil || !slices.Equal(res.Dropped, []string{done.ID}) || !slices.Equal(res.Skipped, []string{run.ID}) {
		t.Fatalf("drop group: %+v %v", res, err)
	}
	if _, err := f.m.Read(f.owner, done.ID, ReadRequest{}); !errors.Is(err, core.ErrNoSession) {
		t.Fatalf("read dropped: %v", err)
	}
	if _, err := f.m.Stop(ctx, f.owner, run.ID, StopOptions{Drop: true}); err != nil {
		t.Fatal(err)
	}
	if l, _ := f.m.List(f.owner, ListFilter{}); len(l) != 0 {
		t.Fatalf("records left: %+v", l)
	}
	if _, err := f.m.Drop(ctx, f.owner, DropRequest{ID: "a", Group: "b"}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("id and group: %v", err)
	}
	// Events are delivered asynchronously; Shutdown flushes them.
	if err := f.m.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	unsub()
	if !slices.Equal(dropped, []string{done.ID, run.ID}) {
		t.Fatalf("dropped events %q", dropped)
	}
}

func TestShutdownLeavesNoProcess(t *testing.T) {
	f := newFixture(t, Config{StopGrace: 200 * time.Millisecond})
	ctx := context.Background()
	f.launch(t, sh("sleep 300"))
	f.launch(t, sh(`trap "" TERM; while :; do sleep 1; done`))
	// A daemon that left the job's process group and tree.
	d := f.launch(t, sh(`sh -c 'setsid sleep 300 & echo daemon $!'; sleep 300`))
	f.waitOutput(t, d.ID, "daemon")
	res, _ := f.m.Read(f.owner, d.ID, ReadRequest{Pattern: `^daemon \d+$`})
	m := regexp.MustCompile(`\d+`).FindString(res.Lines[0].Text)
	daemon, _ := strconv.Atoi(m)
	f.pids = append(f.pids, daemon)
	finished := f.launch(t, sh(`setsid sleep 300 & echo left $!`))
	f.waitEnded(t, finished.ID)
	res, _ = f.m.Read(f.owner, finished.ID, ReadRequest{Pattern: `^left`})
	left, _ := strconv.Atoi(strings.TrimPrefix(res.Lines[0].Text, "left "))
	f.pids = append(f.pids, left)

	var exits []Event
	f.m.OnExit(func(ev Event) {
		if ev.ID != finished.ID { // its exit event may still be on its way
			exits = append(exits, ev)
		}
	})
	if err := f.m.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	for _, pid := range f.pids {
		assertGone(t, pid)
	}
	if len(exits) != 3 {
		t.Fatalf("%d exit events, want 3", len(exits))
	}
	for _, ev := range exits {
		if ev.Info.State != StateStopped || (ev.Info.StopReason != ReasonShutdown && ev.Info.StopReason != ReasonForced) || ev.Info.StopCause != ReasonShutdown {
			t.Errorf("exit at shutdown: %+v", ev.Info)
		}
	}
	if _, err := f.m.Launch(ctx, f.owner, sh("true")); !errors.Is(err, core.ErrServiceDisposing) {
		t.Fatalf("launch after shutdown: %v", err)
	}
	if err := f.m.Shutdown(ctx); err != nil {
		t.Fatalf("second shutdown: %v", err)
	}
}
