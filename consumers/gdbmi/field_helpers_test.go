package gdbmi

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// programTap reads the program's terminal from the point it is created.
type programTap struct {
	t    *testing.T
	tap  *core.Tap
	seen string
}

func newProgramTap(t *testing.T, c *Client, svc *core.Service) *programTap {
	t.Helper()
	tap, err := svc.Tap(c.Owner(), c.ProgramSession())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tap.Close)
	return &programTap{t: t, tap: tap}
}

// waitFor reads until the text seen since the last waitFor holds want, and
// returns that text.
func (p *programTap) waitFor(ctx context.Context, want string) string {
	p.t.Helper()
	for !strings.Contains(p.seen, want) {
		chunk, err := p.tap.Next(ctx)
		p.seen += string(chunk)
		if err != nil {
			p.t.Fatalf("program terminal: waiting for %q, saw %q: %v", want, p.seen, err)
		}
	}
	i := strings.Index(p.seen, want) + len(want)
	out := p.seen[:i]
	p.seen = p.seen[i:]
	return out
}

// startOutside starts a compiled test program outside gdb (its own
// process, stdout on a pipe) and kills it at the end of the test. It
// returns the process once the program printed its first line.
func startOutside(t *testing.T, path string) *os.Process {
	t.Helper()
	cmd := exec.Command(path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	buf := make([]byte, 64)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	return cmd.Process
}

// procState returns the state letter and tracer pid of a process from
// /proc/PID/status.
func procState(t *testing.T, pid int) (state string, tracer int) {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatalf("process %d: %v", pid, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(l, ":")
		v = strings.TrimSpace(v)
		switch k {
		case "State":
			state = v
		case "TracerPid":
			tracer, _ = strconv.Atoi(v)
		}
	}
	return state, tracer
}

// alive reports whether pid exists (a zombie counts as gone).
func alive(t *testing.T, pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	st, _ := procState(t, pid)
	return !strings.HasPrefix(st, "Z")
}
