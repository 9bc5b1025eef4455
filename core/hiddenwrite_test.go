package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// A line written outside a send into a hidden read (a password typed by
// a person or a tool) feeds the command that reads it: the next send
// still settles on the prompt that ends that command, with its exit code,
// and does not wait for the shell's own read of its next line.
func TestSendAfterAHiddenWriteSettlesOnThePrompt(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	if res := send(t, svc, owner, s.ID, `read -rs -p "Password: " pw; echo; read -r -p "Type YES: " yes; echo "done ${#pw} $yes"; (exit 3)`); res.WaitReason != core.WaitStdinRead {
		t.Fatalf("the password prompt settled on %s", res.WaitReason)
	}
	if _, err := svc.Write(ctxT(t), owner, s.ID, []byte("hunter2\r")); err != nil {
		t.Fatal(err)
	}
	// The second question: echo back on, and the program reads again.
	deadline := time.Now().Add(testenv.HangBound)
	for {
		off, _, err := svc.EchoOff(owner, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if waiting, _, _ := svc.WaitingForInput(owner, s.ID); !off && waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second question never came")
		}
		time.Sleep(10 * time.Millisecond)
	}
	res := send(t, svc, owner, s.ID, "YES")
	if res.WaitReason != core.WaitPrompt || res.ExitCode == nil || *res.ExitCode != 3 || !strings.Contains(res.Delta, "done 7 YES") {
		t.Fatalf("the send after the hidden write: %s exit %v %q", res.WaitReason, res.ExitCode, res.Delta)
	}
}
