package gdbmi

import (
	"strings"
	"sync"
	"testing"
)

// TestConsoleTextIsTheCommandsOwn: while a program creates and ends
// threads as fast as it can, gdb prints "[New Thread ...]" and "[Thread
// ... exited]" at any moment; Console answers hold exactly the command's
// own output, and the thread messages reach the caller as events.
func TestConsoleTextIsTheCommandsOwn(t *testing.T) {
	c, _ := startGDB(t, "churn", Options{})
	ctx := testCtx(t)
	var (
		mu         sync.Mutex
		threadText int
		wg         sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ev := range c.Events() {
			if ev.Record.Type == RecordConsole && strings.Contains(ev.Record.Text, "Thread") {
				mu.Lock()
				threadText++
				mu.Unlock()
			}
		}
	}()
	if err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	const rounds = 400
	bad := 0
	for i := 0; i < rounds; i++ {
		text, err := c.Console(ctx, `echo ok\n`)
		if err != nil {
			t.Fatal(err)
		}
		if text != "ok\n" {
			if bad < 5 {
				t.Errorf("answer %d: %q", i, text)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d answers were not exactly the command's output", bad, rounds)
	}
	if err := c.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitStopped(ctx); err != nil {
		t.Fatal(err)
	}
	// An error keeps the text printed before it, and stays an error.
	text, err := c.Console(ctx, "print rounds > 0 ? 1 : nosuchsym")
	if err == nil {
		t.Errorf("no error for an unknown symbol: %q", text)
	}
	if text, err := c.Console(ctx, "print 6*7"); err != nil || text != "$1 = 42\n" {
		t.Errorf("print: %q %v", text, err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if threadText == 0 {
		t.Errorf("no thread message arrived as an event")
	}
}
