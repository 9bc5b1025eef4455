package docker

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/consumers/docker/dockertest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/testharness"
)

// A resize or a signal after the program exited, which the engine refuses
// ("cannot resize a stopped container", "is not running") before the
// session has learnt the exit, waits for the session to learn it and
// fails with the typed SESSION_EXITED error saying what to do next, never
// the engine's own error ("docker resize: …", which the service reports
// as INTERNAL). An engine proxy holds the answers that would tell the
// session of the exit (the exec's inspection, the container's events)
// until the engine has answered the call. In a new container and as an
// exec (which the engine cannot send SIGUSR1).
func TestCallsAfterExitBeforeTheSessionKnows(t *testing.T) {
	b, p, d := proxiedBackend(t)
	for _, exec := range []bool{false, true} {
		for _, call := range []string{"resize", "signal"} {
			if exec && call == "signal" {
				continue
			}
			name := call + " in a new container"
			if exec {
				name = call + " as an exec"
			}
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				ss := spawnEndsOnALine(t, ctx, b, d, exec, "calls-after-exit")
				s := core.BackendSession(ss)
				held, op, asked := "/containers/"+ss.containerID+"/events", "docker resize", "/containers/"+ss.containerID+"/resize"
				if exec {
					held, asked = "/exec/"+ss.execID+"/json", "/exec/"+ss.execID+"/resize"
				}
				if call == "signal" {
					op, asked = "docker kill", "/containers/"+ss.containerID+"/kill"
				}
				if !exec {
					held = "/events"
				}
				p.holdAnswers(held)
				defer p.releaseAnswers()
				endProgram(t, ctx, ss)
				if ss.isExited() {
					t.Fatal("the session learnt the exit while the proxy held the answers that tell it")
				}
				answered := p.answeredToAny(asked)
				res := make(chan error, 1)
				go func() {
					if call == "resize" {
						res <- s.Resize(ctx, core.Size{Rows: 30, Cols: 100})
						return
					}
					_, err := s.Signal(ctx, core.SignalRequest{Signal: "SIGUSR1"})
					res <- err
				}()
				var err error
				select {
				case err = <-res: // before the engine's answer passed: wrong at once
				case <-answered:
					// Give the call the time of one more engine round
					// trip to take the answer (the call may take longer:
					// that only hides a regression, never fails a right
					// call), then let the session learn the exit.
					if _, err := d.Client.Ping(ctx, client.PingOptions{}); err != nil {
						t.Fatal(err)
					}
					p.releaseAnswers()
					err = <-res
				}
				testharness.WantEnded(t, ctx, s, err, op, 3)
			})
		}
	}
}

// A signal the engine refused because the program has ended, whose
// caller gives up before the session has learnt the exit, fails with a
// CANCELLED error that names the engine's call and matches the context's
// error, never a bare context error (which the service would report as
// INTERNAL). The engine proxy holds the container's events, which tell
// the session of the exit, until the test ends.
func TestSignalGivenUpBeforeTheSessionKnows(t *testing.T) {
	b, p, d := proxiedBackend(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ss := spawnEndsOnALine(t, ctx, b, d, false, "signal-given-up")
	s := core.BackendSession(ss)
	t.Cleanup(p.releaseAnswers) // before the session's Close
	p.holdAnswers("/events")
	endProgram(t, ctx, ss)
	answered := p.answeredToAny("/containers/" + ss.containerID + "/kill")
	callCtx, giveUp := context.WithCancel(ctx)
	defer giveUp()
	res := make(chan error, 1)
	go func() {
		_, err := s.Signal(callCtx, core.SignalRequest{Signal: "SIGUSR1"})
		res <- err
	}()
	select {
	case err := <-res:
		t.Fatalf("the signal returned before the session learnt the exit: %v", err)
	case <-answered:
	}
	// Give the call the time of one more engine round trip to take the
	// refusal and wait for the exit (a slower call is given up during
	// the engine's call instead, which must be CANCELLED as well).
	if _, err := d.Client.Ping(ctx, client.PingOptions{}); err != nil {
		t.Fatal(err)
	}
	giveUp()
	err := <-res
	if core.CodeOf(err) != core.CodeCancelled || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "docker kill") {
		t.Fatalf("signal given up: %v (code %q); want CANCELLED naming docker kill and matching context.Canceled", err, core.CodeOf(err))
	}
	if ss.isExited() {
		t.Fatal("the session learnt the exit while the proxy held the answers that tell it")
	}
}

// spawnEndsOnALine spawns sh -c "read x; exit 3" (endProgram ends it) in
// a new container, or as an exec in a running one.
func spawnEndsOnALine(t *testing.T, ctx context.Context, b *Backend, d *dockertest.Daemon, exec bool, marker string) *session {
	t.Helper()
	tg := &Target{Image: d.Image}
	if exec {
		tg, _ = bashTarget(t, d, true)
	}
	return spawnDrained(t, ctx, b, core.BackendRequest{Command: []string{"sh", "-c", "read x; exit 3"}, Size: core.DefaultSize,
		Marker: marker, Options: tg})
}

// endProgram lets the test's program (sh -c "read x; exit 3") end and
// waits for its attach stream to end.
func endProgram(t *testing.T, ctx context.Context, ss *session) {
	t.Helper()
	if _, err := ss.Write(ctx, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ss.relay.OutputDone():
	case <-ctx.Done():
		t.Fatal("the attach stream did not end after the program exited")
	}
}

// A call on an ended program that the engine refuses in words no engine
// has used yet (engineSaysEnded does not know them) is still the typed
// SESSION_EXITED error once the engine's inspection says the program no
// longer runs: the words of dockerd and its runtime change between
// versions ("cannot resize a deleted process" was new in a loaded run).
// The engine proxy holds the answers that would tell the session of the
// exit until the inspection of the call's failure has been answered.
func TestCallRefusedInNewWordsAfterExit(t *testing.T) {
	b, p, d := proxiedBackend(t)
	for _, exec := range []bool{false, true} {
		name := "new container"
		if exec {
			name = "exec"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
			defer cancel()
			ss := spawnEndsOnALine(t, ctx, b, d, exec, "new-words")
			held := "/events"
			if exec {
				held = "/exec/" + ss.execID + "/json"
			}
			p.holdAnswers(held)
			defer p.releaseAnswers()
			endProgram(t, ctx, ss)
			if ss.isExited() {
				t.Fatal("the session learnt the exit while the proxy held the answers that tell it")
			}
			// The call's inspection has been answered (a container's), or
			// is held beside the session's own (an exec's).
			answered := p.answeredToAny("/containers/" + ss.containerID + "/json")
			if exec {
				answered = p.heldAtOnce(2)
			}
			res := make(chan error, 1)
			go func() {
				res <- ss.callFailed(ctx, "docker resize", errors.New("Error response from daemon: the process is no more: unknown"))
			}()
			var err error
			select {
			case err = <-res: // without asking the engine: wrong at once
			case <-answered:
				if _, err := d.Client.Ping(ctx, client.PingOptions{}); err != nil {
					t.Fatal(err)
				}
				p.releaseAnswers()
				err = <-res
			}
			testharness.WantEnded(t, ctx, ss, err, "docker resize", 3)
		})
	}
}
