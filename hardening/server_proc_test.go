package hardening

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// serverProc is a server process the test started and waits for itself.
type serverProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	// exited is closed after cmd.Wait returned: only then may the test
	// read cmd.ProcessState.
	exited chan struct{}
}

// startServer starts bin with args, its stdin and stdout as pipes for an
// MCP client, and waits for it on a goroutine of its own. At the test's
// end a server still running is killed and waited for.
func startServer(t *testing.T, bin string, args ...string) *serverProc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serverProc{cmd: cmd, stdin: stdin, stdout: stdout, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// waitForCommand waits until a process of this run has exactly argv as
// its command line and returns its pid; it fails after testenv.HangBound.
func waitForCommand(t *testing.T, what string, argv ...string) int {
	t.Helper()
	want := []byte{}
	for _, a := range argv {
		want = append(append(want, a...), 0)
	}
	deadline := time.Now().Add(testenv.HangBound)
	for {
		for _, pid := range survivors() {
			if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil && bytes.Equal(b, want) {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s (%q) never ran; processes of this run: %v", what, argv, survivors())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
