package conpty

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/ptyseam/ptyseam/core"
)

// The Windows tests run this test binary itself in a helper role named by
// helperEnv. The helper talks to its console through CONIN$ and CONOUT$,
// not its standard handles: Wine 8.0 leaves the standard handles of a
// program on a pseudo console null (see TestStandardHandlesReachTheConsole).

const helperEnv = "CONPTY_TEST_HELPER"

func init() {
	role := os.Getenv(helperEnv)
	if role == "" {
		return
	}
	os.Exit(runHelper(role))
}

func runHelper(role string) int {
	if role == "stdout" { // the standard handles alone
		fmt.Println("via stdout")
		return 0
	}
	in, err1 := os.OpenFile("CONIN$", os.O_RDWR, 0)
	out, err2 := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err1 != nil || err2 != nil {
		return 90
	}
	say := func(format string, a ...any) { fmt.Fprintf(out, format+"\r\n", a...) }
	readLine := func() string {
		buf := make([]byte, 256)
		n, _ := in.Read(buf) // the console's line input returns one line
		return strings.TrimRight(string(buf[:n]), "\r\n")
	}
	size := func() string {
		var info windows.ConsoleScreenBufferInfo
		if err := windows.GetConsoleScreenBufferInfo(windows.Handle(out.Fd()), &info); err != nil {
			return "unknown"
		}
		w := info.Window
		return fmt.Sprintf("%dx%d", w.Right-w.Left+1, w.Bottom-w.Top+1)
	}
	switch role {
	case "print":
		say("hello from conpty")
		return 7
	case "echo":
		say("ready")
		say("got [%s]", readLine())
		return 0
	case "size":
		say("size %s", size())
		readLine()
		say("size %s", size())
		return 0
	case "ctrlc":
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt)
		say("ready")
		select {
		case <-ch:
			say("interrupted")
			return 0
		case <-time.After(time.Minute):
			return 1
		}
	case "sleep":
		time.Sleep(10 * time.Minute)
		return 0
	case "tree":
		self, _ := os.Executable()
		c := exec.Command(self)
		c.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := c.Start(); err != nil {
			say("start: %v", err)
			return 1
		}
		say("started %d", c.Process.Pid)
		time.Sleep(10 * time.Minute)
		return 0
	}
	return 99
}

// underWine reports whether the test runs under Wine (its ntdll exports
// wine_get_version).
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

// console is a session whose output a goroutine collects.
type console struct {
	t    *testing.T
	s    core.BackendSession
	mu   sync.Mutex
	out  []byte
	eof  chan struct{}
	read error
}

var vt = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>]`)

func spawn(t *testing.T, role string, size core.Size) *console {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := NewExec(ExecOptions{}).Spawn(ctx, core.BackendRequest{
		Command: []string{self}, Env: []string{helperEnv + "=" + role}, Size: size, Marker: "conpty-test",
	})
	if err != nil {
		t.Fatalf("spawn %s: %v", role, err)
	}
	c := &console{t: t, s: s, eof: make(chan struct{})}
	go func() {
		defer close(c.eof)
		buf := make([]byte, 4096)
		for {
			n, err := s.Read(buf)
			c.mu.Lock()
			c.out = append(c.out, buf[:n]...)
			c.mu.Unlock()
			if err != nil {
				c.read = err
				return
			}
		}
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		<-c.eof
	})
	return c
}

// text is the output so far without its VT sequences.
func (c *console) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return vt.ReplaceAllString(string(c.out), "")
}

// await waits until the output matches re and returns the submatches.
func (c *console) await(re string) []string {
	c.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m := rx.FindStringSubmatch(c.text()); m != nil {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.t.Fatalf("no %q in the output %q", re, c.text())
	return nil
}

func (c *console) write(s string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if n, err := c.s.Write(ctx, []byte(s)); err != nil || n != len(s) {
		c.t.Fatalf("write %q: %d, %v", s, n, err)
	}
}

func (c *console) awaitEOF() {
	c.t.Helper()
	select {
	case <-c.eof:
		if c.read != io.EOF {
			c.t.Fatalf("read ended with %v, want io.EOF", c.read)
		}
	case <-time.After(30 * time.Second):
		c.t.Fatalf("no io.EOF after the exit; output %q", c.text())
	}
}

func TestOutputExitCodeAndEOF(t *testing.T) {
	c := spawn(t, "print", core.DefaultSize)
	c.await("hello from conpty")
	<-c.s.Exited()
	if st := c.s.ExitStatus(); st.Kind != core.StatusExited || st.ExitCode != 7 {
		t.Fatalf("status %+v, want exit code 7", st)
	}
	c.awaitEOF()
}

func TestNewlineReachesTheConsoleAsEnter(t *testing.T) {
	c := spawn(t, "echo", core.DefaultSize)
	c.await("ready")
	c.write("abc\n") // the console's line input ends a line on "\r" only
	c.await(`got \[abc\]`)
	<-c.s.Exited()
	if st := c.s.ExitStatus(); st.ExitCode != 0 {
		t.Fatalf("status %+v", st)
	}
}

func TestResizeChangesTheConsoleSize(t *testing.T) {
	c := spawn(t, "size", core.Size{Rows: 30, Cols: 100})
	c.await(`size 100x30`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := c.s.Resize(ctx, core.Size{Rows: 20, Cols: 90})
	if underWine() {
		// Wine 8.0's ResizePseudoConsole is a stub returning E_NOTIMPL.
		if !errors.Is(err, core.ErrUnsupported) {
			t.Fatalf("resize under Wine: %v, want UNSUPPORTED", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	c.write("\n")
	c.await(`size 90x20`)
}

func TestCloseEndsTheProcessTree(t *testing.T) {
	c := spawn(t, "tree", core.DefaultSize)
	m := c.await(`started (\d+)`)
	pid, _ := strconv.Atoi(m[1])
	child, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		t.Fatalf("open the child %d: %v", pid, err)
	}
	defer windows.CloseHandle(child)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if ev, err := windows.WaitForSingleObject(child, 5000); ev != windows.WAIT_OBJECT_0 {
		t.Fatalf("the child %d outlived Close (%d, %v)", pid, ev, err)
	}
	if st := c.s.ExitStatus(); st.Kind != core.StatusExited {
		t.Fatalf("status after Close %+v", st)
	}
	if err := c.s.Close(ctx); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := c.s.Write(ctx, []byte("x")); !errors.Is(err, core.ErrSessionClosing) {
		t.Fatalf("write after Close: %v", err)
	}
}

func TestSignals(t *testing.T) {
	c := spawn(t, "sleep", core.DefaultSize)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.s.Signal(ctx, core.SignalRequest{Signal: core.SIGTSTP}); !errors.Is(err, core.ErrUnsupported) {
		t.Fatalf("SIGTSTP: %v", err)
	}
	if _, err := c.s.Signal(ctx, core.SignalRequest{Signal: core.SIGKILL}); !errors.Is(err, core.ErrSignalRefused) {
		t.Fatalf("SIGKILL without AllowLeader: %v", err)
	}
	select {
	case <-c.s.Exited():
		t.Fatal("the refused SIGKILL ended the program")
	case <-time.After(200 * time.Millisecond):
	}
	res, err := c.s.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM})
	if err != nil || !res.Delivered || res.Method != "job-object" {
		t.Fatalf("SIGTERM: %+v %v", res, err)
	}
	select {
	case <-c.s.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the program")
	}
	if st := c.s.ExitStatus(); st.Signal != "SIGTERM" {
		t.Fatalf("status %+v, want ended by SIGTERM", st)
	}
	c.awaitEOF()
	if _, err := c.s.Signal(ctx, core.SignalRequest{Signal: core.SIGTERM}); !errors.Is(err, core.ErrSessionExited) {
		t.Fatalf("SIGTERM after the exit: %v", err)
	}
}

func TestSIGINTIsControlC(t *testing.T) {
	if underWine() {
		t.Skip("Wine 8.0's pseudo console turns no ^C on its input into a CTRL_C_EVENT: the program never sees it")
	}
	c := spawn(t, "ctrlc", core.DefaultSize)
	c.await("ready")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.s.Signal(ctx, core.SignalRequest{Signal: core.SIGINT})
	if err != nil || !res.Delivered || res.Method != "tty-char" {
		t.Fatalf("SIGINT: %+v %v", res, err)
	}
	c.await("interrupted")
}

func TestStandardHandlesReachTheConsole(t *testing.T) {
	if underWine() {
		t.Skip("Wine 8.0 leaves null standard handles of a program on a pseudo console null: its output never reaches the console")
	}
	c := spawn(t, "stdout", core.DefaultSize)
	c.await("via stdout")
}

func TestSpawnFailureCodes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b := NewExec(ExecOptions{})
	if _, err := b.Spawn(ctx, core.BackendRequest{Command: []string{`C:\no\such\program.exe`}, Size: core.DefaultSize}); !errors.Is(err, core.ErrSpawnFailed) {
		t.Fatalf("missing program: %v, want SPAWN_FAILED", err)
	}
	self, _ := os.Executable()
	if _, err := b.Spawn(ctx, core.BackendRequest{Command: []string{self}, Dir: `C:\no\such\dir`, Size: core.DefaultSize}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("missing dir: %v, want INVALID_ARGUMENT", err)
	}
	if _, err := b.Spawn(ctx, core.BackendRequest{Command: []string{self}, Options: struct{}{}, Size: core.DefaultSize}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("options: %v, want INVALID_ARGUMENT", err)
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := b.Spawn(done, core.BackendRequest{Command: []string{self}, Env: []string{helperEnv + "=sleep"}, Size: core.DefaultSize}); !errors.Is(err, core.ErrSpawnFailed) {
		t.Fatalf("cancelled: %v, want SPAWN_FAILED", err)
	}
}
