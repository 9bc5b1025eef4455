package remote_test

import (
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// The program holding the far side's terminal is described through the
// agent as the local backend describes it: its group, name and whether it
// ignores SIGINT; the shell at its prompt is the leader.
func TestForegroundCrossesTheWire(t *testing.T) {
	s, ctx := spawnPrinting(t, core.BackendRequest{Command: []string{"bash", "--norc", "--noprofile", "-i"}, Env: []string{"PS1=ready$ "}}, "ready$ ")
	p, ok := s.(core.Prober)
	if !ok {
		t.Fatal("a remote session is no core.Prober")
	}
	if _, leader, err := p.DescribeForeground(); err != nil || !leader {
		t.Fatalf("at the prompt: leader %v, %v; want the shell", leader, err)
	}
	if _, err := s.Write(ctx, []byte("trap '' INT; sleep 60\n")); err != nil {
		t.Fatal(err)
	}
	for {
		f, leader, err := p.DescribeForeground()
		if err != nil {
			t.Fatal(err)
		}
		if !leader && f.Name == "sleep" {
			if f.Group <= 0 || !f.IgnoresInterrupt {
				t.Fatalf("foreground %+v: want sleep's group, ignoring SIGINT", f)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("sleep never held the terminal: last %+v leader %v", f, leader)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
