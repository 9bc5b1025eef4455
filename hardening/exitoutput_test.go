package hardening

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// burstScript prints lines numbered lines of 80 bytes (about 5 MB for
// 65,536) and exits at once, without waiting for the terminal to drain.
func burstScript(lines int) string {
	return fmt.Sprintf(`import os
b = b''.join(b'%%08d%%s\n' %% (i, b'y' * 71) for i in range(%d))
os.write(1, b)
os._exit(7)`, lines)
}

// TestOutputAtExit checks, round after round, that every byte a program
// prints right before it exits is in the scrollback before the exit status
// is reported.
func TestOutputAtExit(t *testing.T) {
	const lines = 65536
	svc := newService(t, core.Options{Scrollback: core.ScrollbackLimits{MaxLines: lines + 10, MaxBytes: 8 << 20}})
	n := rounds(100, 1000)
	// The lines every round must find, made once: formatting each line
	// again in every round cost about 0.2 s of CPU a round under -race
	// (20 s for the test), the comparison itself 0.01 s.
	want := make([]string, lines)
	for i := range want {
		want[i] = fmt.Sprintf("%08d%s", i, strings.Repeat("y", 71))
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	errs := make(chan error, n)
	for round := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs <- burstRound(t, svc, round, want)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// burstRound runs one program that prints want (one line each) and exits
// at once, and checks that the scrollback holds exactly want once the
// exit status is known.
func burstRound(t *testing.T, svc *core.Service, round int, want []string) error {
	lines := len(want)
	ctx := testCtx(t, 2*time.Minute)
	owner := core.NewOwner(fmt.Sprint("burst-", round))
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: []string{"python3", "-c", burstScript(lines)}, NoInitialWait: true})
	if err != nil {
		return err
	}
	defer svc.Close(ctx, owner, s.ID, "done")
	st, err := svc.Wait(ctx, owner, s.ID)
	if err != nil {
		return err
	}
	if st != core.ExitedWithCode(7) {
		return fmt.Errorf("round %d: status %v, want exited 7", round, st)
	}
	// Every line is there, in order, the moment the status is known.
	for start := int64(0); start < int64(lines); {
		p, err := svc.Read(owner, s.ID, core.PageRequest{Start: start, Count: 10_000})
		if err != nil {
			return err
		}
		if p.Total != int64(lines) || p.First != 0 || len(p.Lines) == 0 {
			return fmt.Errorf("round %d: total %d first %d, want %d lines from 0", round, p.Total, p.First, lines)
		}
		for i, l := range p.Lines {
			n := start + int64(i)
			if l != want[n] {
				return fmt.Errorf("round %d: line %d = %q", round, n, l)
			}
		}
		start = p.End
	}
	return nil
}
