package screen

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// TestQueriesAnswered runs a program that asks the terminal for its device
// attributes, status and cursor position and waits for the answers. The
// manager answers them; nobody asks for a screen.
func TestQueriesAnswered(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.spawn(size24x80, python(t), testdata(t, "query.py"))
	if st := e.waitExit(id); st.ExitCode != 0 {
		t.Fatalf("the query program exited with %v; output:\n%s", st, e.output(id))
	}
	out := e.output(id)
	if !strings.Contains(out, "REPLIES da1=b'\\x1b[?62;") || !strings.Contains(out, "da2=b'\\x1b[>1;10;0c'") ||
		!strings.Contains(out, "dsr=b'\\x1b[0n'") || !strings.Contains(out, "cpr=5;10") {
		t.Fatalf("unexpected answers:\n%s", out)
	}
}

// TestQueriesUnansweredWithoutManager is the control: the same program on
// a service without the manager gets no answers and gives up.
func TestQueriesUnansweredWithoutManager(t *testing.T) {
	py := python(t)
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		_ = svc.Shutdown(ctx)
	}()
	owner := core.NewOwner("control")
	res, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{
		Type: "exec", Command: []string{py, testdata(t, "query.py")},
		Env: []string{testTokenEnv + "=" + testToken, "QUERY_TIMEOUT=1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Wait(ctxT(t), owner, res.ID); err != nil {
		t.Fatal(err)
	}
	page, err := svc.Read(owner, res.ID, core.PageRequest{Start: 0})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.Text(), "TIMEOUT") {
		t.Fatalf("the program got answers without a manager:\n%s", page.Text())
	}
}

// TestQueriesFromProgramThatNeverReads floods the terminal with cursor
// position requests and never reads the answers: the answers back up in
// the terminal's input, yet the manager keeps ingesting, snapshots keep
// working and the session closes.
func TestQueriesFromProgramThatNeverReads(t *testing.T) {
	e := newEnv(t, Options{ReplyTimeout: 200 * time.Millisecond})
	id := e.spawn(size24x80, python(t), "-c", `
import os, sys, time, tty
tty.setraw(0)
for i in range(200):
    os.write(1, b"\x1b[6n" * 100)
os.write(1, b"\x1b[H\x1b[2JFLOODED")
time.sleep(60)
`)
	s := e.waitFor(id, "FLOODED", func(s Snapshot) bool { return rowHas(s, 0, "FLOODED") })
	if s.Cursor.Row != 0 || s.Cursor.Col != 7 {
		t.Fatalf("cursor %+v", s.Cursor)
	}
	if _, err := e.svc.Close(ctxT(t), e.owner, id, "test"); err != nil {
		t.Fatal(err)
	}
}

// output returns the session's scrollback.
func (e *env) output(id core.SessionID) string {
	e.t.Helper()
	page, err := e.svc.Read(e.owner, id, core.PageRequest{Start: 0})
	if err != nil {
		e.t.Fatalf("read: %v", err)
	}
	return page.Text()
}

// TestSendWaitsForTheAnswerToAQuery: a command asks the terminal for the
// cursor position and reads the answer. Its read of the terminal is a wait
// for the answer the manager owes, not for the caller's input: the send
// settles on the shell's prompt after the command used the answer, not
// on the read.
func TestSendWaitsForTheAnswerToAQuery(t *testing.T) {
	e := newEnvOn(t, Options{}, core.Options{QuietWindow: 5 * time.Second})
	res, err := e.m.Spawn(ctxT(t), e.owner, core.SpawnRequest{
		Type: "shell", Command: []string{"bash", "--noprofile", "--norc", "-i"}, Size: core.Size{Rows: 40, Cols: 160},
		Env: []string{testTokenEnv + "=" + testToken},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The first query's answer comes after the emulator caught up on the
	// ring, which the numbers fill: the slow path.
	for i := range 3 {
		op, err := e.svc.Send(ctxT(t), e.owner, res.ID, core.SendRequest{Data: `seq 100000; printf '\e[6n'; read -s -d R pos; echo "pos=${pos#*[}"`})
		if err != nil {
			t.Fatal(err)
		}
		r, err := op.Wait(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if r.WaitReason != core.WaitPrompt || !strings.Contains(r.Delta, "pos=") {
			t.Fatalf("send %d settled %s with %q: want the prompt after the answered query", i, r.WaitReason, r.Delta[max(0, len(r.Delta)-200):])
		}
	}
}
