package localpty

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// TestSettledSendNamesTheBusyProgram: a send that settles without a
// prompt or a read (timeout here) while a command the shell started holds
// the terminal names that command, and counts the typed line it has not
// read; with the shell itself in the foreground it names nothing.
func TestSettledSendNamesTheBusyProgram(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	send := func(data string) core.SendResult {
		t.Helper()
		// Neither line ends in a prompt or a read: the send ends at its
		// deadline, however loaded the machine.
		return sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: data, QuietWindow: waitLimit, Timeout: 300 * time.Millisecond})
	}

	// The shell in the foreground, waiting for its background job.
	if res := send("sleep 1000 & wait"); res.WaitReason != core.WaitTimeout || res.Foreground != nil {
		t.Fatalf("the shell waiting for a job: %s, foreground %+v", res.WaitReason, res.Foreground)
	}
	op, err := svc.Send(ctx, owner, info.ID, core.SendRequest{Data: "\x03", NoSubmit: true})
	mustf(t, err, "interrupt")
	_, _ = op.Wait(ctx)

	// sleep in the foreground, once the shell started it.
	send("sleep 1000")
	for foregroundGroupOf(t, info.PID) == info.PID {
		if ctx.Err() != nil {
			t.Fatal("sleep never took the terminal")
		}
		time.Sleep(10 * time.Millisecond)
	}
	res := send("echo typed")
	f := res.Foreground
	if res.WaitReason != core.WaitTimeout || f == nil {
		t.Fatalf("a line typed while sleep runs: %s, foreground %+v", res.WaitReason, f)
	}
	if f.Name != "sleep" || f.Group != foregroundGroupOf(t, info.PID) || f.Reading || f.UnreadInput != len("echo typed\n") {
		t.Fatalf("foreground %+v, want sleep's group %d, not reading, %d bytes unread", f, foregroundGroupOf(t, info.PID), len("echo typed\n"))
	}
}

// TestInterruptDiscardsTypedAhead: a SIGINT through Signal discards the
// line typed while a busy program held the terminal, as a Ctrl-C typed
// into the terminal does, so the shell does not run it once the program
// is interrupted.
func TestInterruptDiscardsTypedAhead(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	send := func(data string, timeout time.Duration) core.SendResult {
		t.Helper()
		return sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: data, QuietWindow: waitLimit, Timeout: timeout})
	}
	send("sleep 1000", 300*time.Millisecond)
	for foregroundGroupOf(t, info.PID) == info.PID {
		if ctx.Err() != nil {
			t.Fatal("sleep never took the terminal")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if res := send("echo typed-ahead-$((6*7))", 300*time.Millisecond); res.Foreground == nil || res.Foreground.UnreadInput <= 0 {
		t.Fatalf("the line typed behind sleep: %+v", res.Foreground)
	}
	if _, err := svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT}); err != nil {
		t.Fatal(err)
	}
	// The shell reads whatever is queued before this line: had the typed
	// line survived, it would have run before this one prints after-42.
	send("echo after-$((6*7))", 2*waitLimit)
	for {
		page, err := svc.Read(owner, info.ID, core.PageRequest{Start: 0, Count: 1000})
		mustf(t, err, "read")
		text := strings.Join(page.Lines, "\n")
		if strings.Contains(text, "\ntyped-ahead-42") {
			t.Fatalf("the line typed ahead ran after the interrupt:\n%s", text)
		}
		if strings.Contains(text, "\nafter-42") {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the line after the interrupt never ran:\n%s", text)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// foregroundGroupOf returns the foreground process group of pid's
// terminal (field 8 of /proc/PID/stat).
func foregroundGroupOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	mustf(t, err, "stat")
	fields := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
	g, err := strconv.Atoi(string(fields[5]))
	mustf(t, err, "tpgid")
	return g
}
