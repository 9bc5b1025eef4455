package localpty

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// interruptedLists are command lists typed at an interactive bash, each
// printing READY at the moment it is interrupted (the test signals as soon
// as it reads it): right after a builtin, before the next command forks;
// between builtins; after an external command; inside a group. Each ends
// in a long sleep that only a lost interrupt would leave running.
var interruptedLists = []string{
	`sleep 0.2; printf 'RE''ADY'; sleep 60`,
	`printf 'RE''ADY'; sleep 60`,
	`sleep 0.2; printf 'RE''ADY'; x=1; : ; sleep 60`,
	`sleep 0.2; /bin/echo RE''ADY; sleep 60`,
	`{ sleep 0.2; printf 'RE''ADY'; sleep 60; }`,
	`sleep 0.2; printf 'RE''ADY'; sleep 60; sleep 60`,
}

// TestInterruptingACommandListReturnsToThePrompt types command lists at an
// interactive bash and interrupts each the moment it prints: the shell
// waits for input again, the list abandoned. bash holds back an interrupt
// that reaches it between two commands (the shell itself in the
// foreground, or the next command's process before it runs the program)
// until the next command ends, so without the seam's follow-up the sleep
// ran on (most of these lists, on a quiet machine).
func TestInterruptingACommandListReturnsToThePrompt(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	tap, err := svc.Tap(owner, info.ID)
	mustf(t, err, "tap")
	defer tap.Close()
	for round := range 3 {
		for i, list := range interruptedLists {
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			op, err := svc.Send(ctx, owner, info.ID, core.SendRequest{Data: list, Timeout: 100 * time.Millisecond})
			mustf(t, err, "send %q", list)
			for seen := []byte(nil); !bytes.Contains(seen, []byte("READY")); {
				c, err := tap.Next(ctx)
				mustf(t, err, "waiting for READY from %q (output so far %q)", list, seen)
				seen = append(seen, c...)
			}
			res, err := svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT})
			mustf(t, err, "signal %q", list)
			_, err = op.Wait(ctx)
			mustf(t, err, "the send of %q", list)
			if !shellReadsWithin(svc, owner, info.ID, waitLimit) {
				t.Fatalf("round %d list %d %q: the shell did not wait for input within %v of the interrupt (%+v)\n%s",
					round, i, list, waitLimit, res, sessionTree(info.PID))
			}
			cancel()
		}
	}
}

// shellReadsWithin polls the input probe until the session waits for
// input, up to within (a failure bound).
func shellReadsWithin(svc *core.Service, owner *core.Owner, id core.SessionID, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if waiting, ok, err := svc.WaitingForInput(owner, id); err == nil && ok && waiting {
			return true
		}
		time.Sleep(time.Millisecond) // the poll's pace, not a schedule
	}
	return false
}

// sessionTree is ps's view of a session's processes and its terminal's
// foreground group, for a failure message.
func sessionTree(pid int) string {
	out, err := exec.Command("ps", "-o", "pid,ppid,pgid,tpgid,stat,wchan:20,cmd", "--ppid", strconv.Itoa(pid), "-p", strconv.Itoa(pid)).CombinedOutput()
	if err != nil {
		return "ps: " + err.Error() + "\n" + string(out)
	}
	return string(out)
}

// TestInterruptAProgramHandlesLeavesTheListRunning: a program that
// catches the interrupt and exits normally lets bash go on with the list
// (a terminal's Ctrl-C does the same); the seam's follow-up of a held-back
// interrupt must not take the next command for one and interrupt it.
func TestInterruptAProgramHandlesLeavesTheListRunning(t *testing.T) {
	need(t, "python3")
	svc, owner, info := shellService(t, core.SpawnRequest{})
	tap, err := svc.Tap(owner, info.ID)
	mustf(t, err, "tap")
	defer tap.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	list := `python3 -c $'import time\ntry:\n print("RE"+"ADY", flush=True); time.sleep(60)\nexcept KeyboardInterrupt:\n print("handled")'; sleep 0.5; echo next-$((6*7))`
	op, err := svc.Send(ctx, owner, info.ID, core.SendRequest{Data: list, Timeout: 100 * time.Millisecond})
	mustf(t, err, "send")
	for seen := []byte(nil); !bytes.Contains(seen, []byte("READY")); {
		c, err := tap.Next(ctx)
		mustf(t, err, "waiting for READY (output so far %q)", seen)
		seen = append(seen, c...)
	}
	res, err := svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT})
	mustf(t, err, "signal")
	_, err = op.Wait(ctx)
	mustf(t, err, "the send")
	for seen := []byte(nil); !bytes.Contains(seen, []byte("next-42")); {
		c, err := tap.Next(ctx)
		mustf(t, err, "waiting for the list's next command (%+v, output so far %q)\n%s", res, seen, sessionTree(info.PID))
		seen = append(seen, c...)
	}
	if !shellReadsWithin(svc, owner, info.ID, waitLimit) {
		t.Fatalf("the shell did not wait for input after the list\n%s", sessionTree(info.PID))
	}
}

// TestInterruptAJobOfANestedShellLeavesTheShellAlone interrupts a job of
// a shell started in the session (a nested bash; gdb and its inferior
// are the same case): that shell takes the terminal back, and it is no
// command the session's shell held an interrupt back from, so the
// interrupt is not followed up on it (a nested shell drew a second
// prompt, gdb said "Quit", and the signal waited out its follow-up bound).
func TestInterruptAJobOfANestedShellLeavesTheShellAlone(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	tap, err := svc.Tap(owner, info.ID)
	mustf(t, err, "tap")
	defer tap.Close()
	var out []byte
	waitOut := func(want string) {
		t.Helper()
		for !bytes.Contains(out, []byte(want)) {
			c, err := tap.Next(ctx)
			mustf(t, err, "waiting for %q (output so far %q)", want, out)
			out = append(out, c...)
		}
	}
	send := func(data string) {
		t.Helper()
		op, err := svc.Send(ctx, owner, info.ID, core.SendRequest{Data: data, Timeout: 100 * time.Millisecond})
		mustf(t, err, "send %q", data)
		_, err = op.Wait(ctx)
		mustf(t, err, "the send of %q", data)
	}
	send(`PS1='nested$ ' bash --norc --noprofile`)
	waitOut("nested$ ")
	send(`printf 'RE''ADY'; sleep 60`)
	waitOut("READY")
	out = out[bytes.Index(out, []byte("READY")):]
	start := time.Now()
	res, err := svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT})
	mustf(t, err, "signal")
	if took := time.Since(start); took >= interruptFollowLimit {
		t.Errorf("the signal took %v: it waited out its follow-up bound for a shell already back at its prompt", took)
	}
	send(`echo done-$((6*7))`)
	waitOut("done-42")
	if n := bytes.Count(out, []byte("nested$ ")); n != 2 {
		t.Fatalf("the nested shell drew %d prompts after the interrupt, want 2 (one for the interrupted job, one for the echo): %+v\n%q", n, res, out)
	}
}
