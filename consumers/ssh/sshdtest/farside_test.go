package sshdtest

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestCPUCountsASession: the CPU a session's command spent, as its own
// shell's `times` reports it, is in the server's CPU once the connection
// has ended, even for a process whose parent exited first (orphaned, it
// is waited for by init, outside sshd's tree); and the connection's sshd
// processes are listed while it lives.
func TestCPUCountsASession(t *testing.T) {
	s := Start(t, Options{AccountCPU: true})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := s.CPU()
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, s)
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// An orphan hashes 64 MiB and prints its shell's and its children's
	// times; its parent has exited by then. The session waits for the
	// orphan's output.
	if err := sess.Start("sh -c 'sleep 0.2; head -c 67108864 /dev/zero | sha256sum >/dev/null; times' & exit 0"); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	buf := make([]byte, 256)
	listed := false
	for {
		if !listed {
			for _, p := range s.Processes() {
				listed = listed || p.Name == "sshd" // the connection's
			}
		}
		n, err := stdout.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			break
		}
	}
	_ = sess.Wait()
	_ = c.Close()
	if err := s.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := s.CPU()
	if err != nil {
		t.Fatal(err)
	}
	var spent time.Duration
	for _, f := range strings.Fields(out.String()) { // "0m0.001s 0m0.002s" lines
		if d, err := time.ParseDuration(f); err == nil {
			spent += d
		}
	}
	t.Logf("server CPU %v, the orphan's own account %v (%q)", after-before, spent, out.String())
	if spent == 0 || after-before < spent {
		t.Fatalf("server CPU %v, the orphan says it spent %v (%q)", after-before, spent, out.String())
	}
	if !listed {
		t.Errorf("the connection's sshd processes were never listed below the listener")
	}
}
