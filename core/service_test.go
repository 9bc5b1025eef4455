package core_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/procfs"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// newService returns a service with the local backends and shuts it down
// at the end of the test, failing the test if anything survives.
func newService(t *testing.T, opts core.Options) *core.Service {
	t.Helper()
	svc := core.New(opts)
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return svc
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(cancel)
	return ctx
}

func spawnShell(t *testing.T, svc *core.Service, owner *core.Owner) core.SpawnResult {
	t.Helper()
	res, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "shell"})
	if err != nil {
		t.Fatalf("spawn shell: %v", err)
	}
	return res
}

func send(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, text string) core.SendResult {
	t.Helper()
	op, err := svc.Send(ctxT(t), owner, id, core.SendRequest{Data: text})
	if err != nil {
		t.Fatalf("send %q: %v", text, err)
	}
	res, err := op.Wait(ctxT(t))
	if err != nil {
		t.Fatalf("wait %q: %v", text, err)
	}
	return res
}

func TestShellStatePersistsAcrossSends(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	dir := t.TempDir()
	send(t, svc, owner, s.ID, "cd "+dir+" && GREETING=hello-ptyseam")
	res := send(t, svc, owner, s.ID, `echo "$PWD:$GREETING"`)
	if !strings.Contains(res.Delta, dir+":hello-ptyseam") {
		t.Fatalf("state lost between sends: %q", res.Delta)
	}
	if res.WaitReason != core.WaitPrompt {
		t.Fatalf("wait reason %q, want prompt", res.WaitReason)
	}
	if res.Status.Exited() {
		t.Fatalf("status %v, want running", res.Status)
	}
	res = send(t, svc, owner, s.ID, "false")
	if res.ExitCode == nil || *res.ExitCode != 1 {
		t.Fatalf("command exit code %v, want 1", res.ExitCode)
	}
}

func TestPromptWithoutNewlineSettlesAsStdinRead(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	res := send(t, svc, owner, s.ID, "read -p 'Password: ' pw")
	if res.WaitReason != core.WaitStdinRead {
		t.Fatalf("wait reason %q, want stdin_read", res.WaitReason)
	}
	page, err := svc.Read(owner, s.ID, core.PageRequest{Newest: true, Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !page.Partial || page.Lines[0] != "Password: " {
		t.Fatalf("the prompt is not visible at once: %+v", page)
	}
	res = send(t, svc, owner, s.ID, "secret")
	if res.WaitReason != core.WaitPrompt {
		t.Fatalf("after answering: wait reason %q, want prompt", res.WaitReason)
	}
}

func TestPythonREPLPromptIsVisible(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"python3", "-q", "-i"}})
	if err != nil {
		t.Fatal(err)
	}
	// On a loaded machine the interpreter may take longer to start than
	// the initial wait; whatever was returned must be the prompt's prefix.
	if s.InitialOutput != "" && !strings.HasSuffix(s.InitialOutput, ">>> ") {
		t.Fatalf("initial output %q does not end with the REPL prompt", s.InitialOutput)
	}
	// A line typed before the interpreter started (python3 may be a
	// version manager's shim taking seconds under load) settles on the
	// quiet window, as it should: the round trip starts at the prompt.
	waitPartialLine(t, svc, owner, s.ID, ">>> ")
	res := send(t, svc, owner, s.ID, "6*7")
	if res.WaitReason != core.WaitStdinRead || !strings.Contains(res.Delta, "42") || !strings.HasSuffix(res.Delta, ">>> ") {
		t.Fatalf("REPL round trip: reason %q output %q", res.WaitReason, res.Delta)
	}
}

func TestExitCodeAndSignalAreReported(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	res := send(t, svc, owner, s.ID, "exit 3")
	if res.WaitReason != core.WaitSessionExit || res.Status != core.ExitedWithCode(3) {
		t.Fatalf("exit 3: reason %q status %v", res.WaitReason, res.Status)
	}
	if _, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "x", NoSubmit: true}); !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("send to an exited session: %v, want SESSION_EXITED", err)
	}

	k, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"sh", "-c", "kill -KILL $$"}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := svc.Wait(ctxT(t), owner, k.ID)
	if err != nil || st != core.ExitedWithSignal("SIGKILL") {
		t.Fatalf("killed program: status %v err %v, want exited (SIGKILL)", st, err)
	}
}

func TestOutputBeforeExitIsAllThere(t *testing.T) {
	svc := newService(t, core.Options{Scrollback: core.ScrollbackLimits{MaxLines: 200_000, MaxBytes: 16 << 20}})
	owner := core.NewOwner("agent")
	const lines = 65536 // 80 bytes each: about 5 MB
	script := fmt.Sprintf("import sys\nfor i in range(%d): sys.stdout.write('%%08d%%s\\n' %% (i, 'x'*71))\nsys.stdout.flush()", lines)
	for round := range 5 {
		s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"python3", "-c", script}, NoInitialWait: true})
		if err != nil {
			t.Fatal(err)
		}
		st, err := svc.Wait(ctxT(t), owner, s.ID)
		if err != nil || st != core.ExitedWithCode(0) {
			t.Fatalf("round %d: status %v err %v", round, st, err)
		}
		last, err := svc.Read(owner, s.ID, core.PageRequest{Start: lines - 1, Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		if last.Total != lines || len(last.Lines) != 1 || !strings.HasPrefix(last.Lines[0], fmt.Sprintf("%08d", lines-1)) {
			t.Fatalf("round %d: output lost at exit: total %d, last page %+v", round, last.Total, last.Lines)
		}
		if _, err := svc.Close(ctxT(t), owner, s.ID, "test"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestForeignOwnerIsRefusedEverywhere(t *testing.T) {
	svc := newService(t, core.Options{})
	owner, other := core.NewOwner("agent"), core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	ctx := ctxT(t)
	checks := map[string]error{}
	_, checks["send"] = svc.Send(ctx, other, s.ID, core.SendRequest{Data: "id"})
	_, checks["read"] = svc.Read(other, s.ID, core.PageRequest{})
	_, checks["signal"] = svc.Signal(ctx, other, s.ID, core.SignalRequest{Signal: core.SIGINT})
	checks["resize"] = svc.Resize(ctx, other, s.ID, core.Size{Rows: 10, Cols: 10})
	_, checks["info"] = svc.Info(other, s.ID)
	_, checks["tap"] = svc.Tap(other, s.ID)
	_, checks["write"] = svc.Write(ctx, other, s.ID, []byte("x"))
	_, checks["wait"] = svc.Wait(ctx, other, s.ID)
	_, checks["close"] = svc.Close(ctx, other, s.ID, "guess")
	for op, err := range checks {
		if !errors.Is(err, core.ErrForeignSession) {
			t.Errorf("%s by a foreign owner: %v, want FOREIGN_SESSION", op, err)
		}
	}
	if list, _ := svc.List(other); len(list) != 0 {
		t.Errorf("a foreign owner lists %d sessions", len(list))
	}
	// The session still works for its owner.
	if res := send(t, svc, owner, s.ID, "echo still-mine"); !strings.Contains(res.Delta, "still-mine") {
		t.Fatalf("session unusable after foreign calls: %q", res.Delta)
	}
}

func TestOneLiveSendPerSession(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	op, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "sleep 100"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "echo no"}); !errors.Is(err, core.ErrSendActive) {
		t.Fatalf("second send: %v, want SEND_ACTIVE", err)
	}
	if _, err := svc.Read(owner, s.ID, core.PageRequest{}); err != nil {
		t.Fatalf("read during a send: %v", err)
	}
	start := time.Now()
	if !op.Cancel() {
		t.Fatalf("Cancel of a live send returned false")
	}
	res, err := op.Wait(ctxT(t))
	if err != nil || res.WaitReason != core.WaitCancelled {
		t.Fatalf("cancelled send: reason %q err %v", res.WaitReason, err)
	}
	if op.Cancel() {
		t.Fatalf("Cancel after settlement returned true")
	}
	// SIGINT reached sleep: the shell prompts again.
	res = send(t, svc, owner, s.ID, "echo after-$?")
	if !strings.Contains(res.Delta, "after-130") {
		t.Fatalf("sleep was not interrupted by SIGINT: %q", res.Delta)
	}
	if time.Since(start) > 20*time.Second {
		t.Fatalf("cancel took %v", time.Since(start))
	}
}

func TestCloseIsIdempotentAndConcurrent(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	var wg sync.WaitGroup
	results := make([]bool, 8)
	errs := make([]error, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = svc.Close(ctxT(t), owner, s.ID, "test")
		}()
	}
	wg.Wait()
	trues := 0
	for i := range results {
		if errs[i] != nil {
			t.Fatalf("concurrent close %d: %v", i, errs[i])
		}
		if results[i] {
			trues++
		}
	}
	if trues != 1 {
		t.Fatalf("%d closes reported performing the teardown, want exactly 1", trues)
	}
	if closed, err := svc.Close(ctxT(t), owner, s.ID, "again"); closed || err != nil {
		t.Fatalf("close of a closed session = %v, %v; want false, nil", closed, err)
	}
	if _, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "x", NoSubmit: true}); !errors.Is(err, core.ErrNoSession) {
		t.Fatalf("send to a closed session: %v, want NO_SESSION", err)
	}
	if _, err := svc.Close(ctxT(t), core.NewOwner("x"), s.ID, "guess"); !errors.Is(err, core.ErrForeignSession) {
		t.Fatalf("foreign close of a closed session: %v, want FOREIGN_SESSION", err)
	}
	if svc.HasOwnerActivity(owner) {
		t.Fatalf("owner still active after its only session closed")
	}
}

func TestCloseKillsEscapedDescendants(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	pidFile := filepath.Join(t.TempDir(), "pid")
	// A double fork with setsid: the grandchild leaves the shell's session.
	send(t, svc, owner, s.ID, fmt.Sprintf(`(setsid sh -c 'sleep 1000 & echo $! > %s' &) ; sleep 0.3`, pidFile))
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if !alive(pid) {
		t.Fatalf("escaped sleep %d not running before close", pid)
	}
	if closed, err := svc.Close(ctxT(t), owner, s.ID, "test"); !closed || err != nil {
		t.Fatalf("close = %v, %v", closed, err)
	}
	if alive(pid) {
		t.Fatalf("escaped sleep %d survived the close", pid)
	}
}

func TestLiveSendSettlesAsSessionExitOnClose(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	op, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "sleep 100"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Close(ctxT(t), owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-op.Done():
	default:
		t.Fatalf("the send outlived the close")
	}
	res, _ := op.Wait(ctxT(t))
	if res.WaitReason != core.WaitSessionExit {
		t.Fatalf("reason %q, want session_exit", res.WaitReason)
	}
}

func TestDisposeOwnerClosesAll(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	a := spawnShell(t, svc, owner)
	b := spawnShell(t, svc, owner)
	list, err := svc.List(owner)
	if err != nil || len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID {
		t.Fatalf("list not in publication order: %+v %v", list, err)
	}
	if err := svc.DisposeOwner(ctxT(t), owner); err != nil {
		t.Fatal(err)
	}
	if svc.HasOwnerActivity(owner) {
		t.Fatalf("activity after dispose")
	}
	if _, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{}); !errors.Is(err, core.ErrOwnerDisposed) {
		t.Fatalf("spawn for a disposed owner: %v", err)
	}
	if _, err := svc.Read(owner, a.ID, core.PageRequest{}); !errors.Is(err, core.ErrOwnerDisposed) {
		t.Fatalf("read for a disposed owner: %v", err)
	}
}

// waitPartialLine waits (testenv.HangBound at most) until the newest line
// of the session is the unfinished line want.
func waitPartialLine(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, want string) {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	for {
		page, err := svc.Read(owner, id, core.PageRequest{Newest: true, Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		if page.Partial && len(page.Lines) == 1 && page.Lines[0] == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session never showed %q: %+v", want, page)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func alive(pid int) bool { return procfs.Alive(pid, 0) }
