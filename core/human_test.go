package core_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// waitOutput reads a tap until its output so far contains want.
func waitOutput(t *testing.T, tap *core.Tap, want string) {
	t.Helper()
	var got strings.Builder
	ctx := ctxT(t)
	for !strings.Contains(got.String(), want) {
		b, err := tap.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %q (have %q): %v", want, got.String(), err)
		}
		got.Write(b)
	}
}

func TestTakeOverRefusesTheOwnerAndHandBackNotes(t *testing.T) {
	var mu sync.Mutex
	var events []core.Event
	svc := newService(t, core.Options{OnEvent: func(ev core.Event) {
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	}})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	tap, err := svc.Tap(owner, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()

	c, err := svc.TakeOver(owner, s.ID, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.TakeOver(owner, s.ID, "bob"); !errors.Is(err, core.ErrHumanInControl) {
		t.Fatalf("second take-over: %v, want HUMAN_IN_CONTROL", err)
	}
	if who, _ := svc.Controller(owner, s.ID); who != "alice" {
		t.Fatalf("controller %q", who)
	}
	_, err = svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "echo model"})
	if !errors.Is(err, core.ErrHumanInControl) || !strings.Contains(err.Error(), "try again after they hand back") {
		t.Fatalf("send under control: %v, want HUMAN_IN_CONTROL", err)
	}
	if _, err := svc.Write(ctxT(t), owner, s.ID, []byte("x")); !errors.Is(err, core.ErrHumanInControl) {
		t.Fatalf("write under control: %v", err)
	}
	if _, err := svc.Signal(ctxT(t), owner, s.ID, core.SignalRequest{Signal: core.SIGINT}); !errors.Is(err, core.ErrHumanInControl) {
		t.Fatalf("signal under control: %v", err)
	}
	if _, err := c.Write(ctxT(t), []byte("echo typed-by-$((20+22))\r")); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, tap, "typed-by-42")
	c.HandBack()
	c.HandBack() // idempotent
	select {
	case <-c.Released():
	default:
		t.Fatal("Released not closed after HandBack")
	}
	if _, err := c.Write(ctxT(t), []byte("x")); !errors.Is(err, core.ErrHumanInControl) {
		t.Fatalf("write after hand-back: %v", err)
	}
	res := send(t, svc, owner, s.ID, "echo model-again")
	if res.HandBack == nil || res.HandBack.Person != "alice" || !strings.Contains(res.HandBack.Output, "typed-by-42") {
		t.Fatalf("first send after hand-back: HandBack %+v", res.HandBack)
	}
	if !res.HandBack.End.After(res.HandBack.Start) {
		t.Fatalf("hand-back times %v..%v", res.HandBack.Start, res.HandBack.End)
	}
	if res := send(t, svc, owner, s.ID, "echo third"); res.HandBack != nil {
		t.Fatalf("second send after hand-back carries the note again: %+v", res.HandBack)
	}
	mu.Lock()
	defer mu.Unlock()
	var kinds []string
	for _, ev := range events {
		if ev.Session == s.ID && ev.Kind != core.EventSettled {
			who := ev.Person
			if ev.Kind == core.EventInput && who == "" {
				who = "model"
			}
			kinds = append(kinds, string(ev.Kind)+":"+who)
		}
	}
	want := "take_over:alice input:alice hand_back:alice input:model input:model"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("events %q, want %q", got, want)
	}
}

func TestHumanWaitHoldsTheSendUntilHandBack(t *testing.T) {
	svc := newService(t, core.Options{HumanControl: core.HumanWait})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	c, err := svc.TakeOver(owner, s.ID, "alice")
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		res core.SendResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		op, err := svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "echo held"})
		if err != nil {
			done <- result{err: err}
			return
		}
		r, err := op.Wait(ctxT(t))
		done <- result{r, err}
	}()
	if _, err := c.Write(ctxT(t), []byte("echo person\r")); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		t.Fatalf("the send returned while a person was in control: %+v %v", r.res, r.err)
	default:
	}
	c.HandBack()
	r := <-done
	if r.err != nil || !strings.Contains(r.res.Delta, "held") || r.res.HandBack == nil {
		t.Fatalf("held send: %+v %v", r.res, r.err)
	}
	// A send still held when its timeout passes is refused.
	c, err = svc.TakeOver(owner, s.ID, "alice")
	if err != nil {
		t.Fatal(err)
	}
	defer c.HandBack()
	_, err = svc.Send(ctxT(t), owner, s.ID, core.SendRequest{Data: "echo late", Timeout: 50 * time.Millisecond})
	if !errors.Is(err, core.ErrHumanInControl) {
		t.Fatalf("send held past its timeout: %v", err)
	}
}

func TestCloseReleasesTheControl(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	c, err := svc.TakeOver(owner, s.ID, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Close(ctxT(t), owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
	<-c.Released()
	if _, err := c.Write(ctxT(t), []byte("x")); !errors.Is(err, core.ErrNoSession) && !errors.Is(err, core.ErrSessionClosing) {
		t.Fatalf("write to a closed session: %v", err)
	}
	c.HandBack()
}

func TestInputWhileEchoIsOffIsWithheldFromObservers(t *testing.T) {
	var mu sync.Mutex
	var inputs []core.Event
	svc := newService(t, core.Options{OnEvent: func(ev core.Event) {
		if ev.Kind == core.EventInput {
			mu.Lock()
			inputs = append(inputs, core.Event{Data: append([]byte(nil), ev.Data...), Secret: ev.Secret, SecretLen: ev.SecretLen})
			mu.Unlock()
		}
	}})
	owner := core.NewOwner("agent")
	s := spawnShell(t, svc, owner)
	if res := send(t, svc, owner, s.ID, `read -rs -p "Password: " pw; echo; echo "got ${#pw}"`); res.WaitReason != core.WaitStdinRead {
		t.Fatalf("password prompt settled on %s", res.WaitReason)
	}
	if res := send(t, svc, owner, s.ID, "hunter2"); !strings.Contains(res.Delta, "got 7") {
		t.Fatalf("answer: %q", res.Delta)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(inputs) != 2 || inputs[0].Secret || !strings.Contains(string(inputs[0].Data), "read -rs") {
		t.Fatalf("inputs %+v", inputs)
	}
	if !inputs[1].Secret || inputs[1].SecretLen != len("hunter2\r") || len(inputs[1].Data) != 0 {
		t.Fatalf("the password reached an observer: %+v", inputs[1])
	}
}
