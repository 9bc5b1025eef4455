package hardening

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/gdbmi"
	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
	"github.com/ptyseam/ptyseam/ptysession/tools"
)

// badCase is one malformed input and the typed error it must get.
type badCase struct {
	layer, name string
	call        func() error
	// want is a sentinel for errors.Is; check, when set, replaces it.
	want  error
	check func(error) bool
}

func isType[T error](err error) bool {
	var t T
	return errors.As(err, &t)
}

func toolCode(code core.Code) func(error) bool {
	return func(err error) bool {
		var te *tools.ToolError
		return errors.As(err, &te) && te.Code == string(code)
	}
}

// TestBadInputAcrossLayers feeds every layer malformed input, checks each
// typed error, and then checks the service still serves a healthy session.
func TestBadInputAcrossLayers(t *testing.T) {
	svc := newService(t, core.Options{})
	ctx := testCtx(t, 2*time.Minute)
	owner, stranger := core.NewOwner("agent"), core.NewOwner("agent")
	fac := ptysession.New(svc, ptysession.Options{})
	disp, err := tools.NewDispatcher(tools.Options{}, ptytools.Tools(fac)...)
	if err != nil {
		t.Fatal(err)
	}
	healthy, err := fac.Open(ctx, owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := fac.Open(ctx, owner, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fac.Close(ctx, owner, closed.SessionID); err != nil {
		t.Fatal(err)
	}
	jm, err := jobs.New(svc, jobs.Config{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer jm.Shutdown(context.Background())
	id := healthy.SessionID
	callTool := func(name, args string) func() error {
		return func() error {
			_, err := disp.Call(ctx, owner, name, json.RawMessage(args), tools.CallOptions{})
			return err
		}
	}

	cases := []badCase{
		// core
		{layer: "core", name: "spawn with a nil owner", want: core.ErrInvalidArgument, call: func() error { _, err := svc.Spawn(ctx, nil, core.SpawnRequest{}); return err }},
		{layer: "core", name: "spawn on an unknown backend", want: core.ErrNoBackend, call: func() error { _, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "telnet"}); return err }},
		{layer: "core", name: "spawn with an env name holding a space", want: core.ErrInvalidArgument, call: func() error {
			_, err := svc.Spawn(ctx, owner, core.SpawnRequest{Env: []string{"A B=1"}})
			return err
		}},
		{layer: "core", name: "spawn with a NUL in an argument", want: core.ErrInvalidArgument, call: func() error {
			_, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: []string{"echo", "a\x00b"}})
			return err
		}},
		{layer: "core", name: "spawn of a program that does not exist", want: core.ErrSpawnFailed, call: func() error {
			_, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: "exec", Command: []string{"no-such-program-ptyseam"}})
			return err
		}},
		{layer: "core", name: "spawn with a huge terminal", want: core.ErrInvalidArgument, call: func() error {
			_, err := svc.Spawn(ctx, owner, core.SpawnRequest{Size: core.Size{Rows: 9000, Cols: 9000}})
			return err
		}},
		{layer: "core", name: "send 10 MiB", want: core.ErrInvalidArgument, call: func() error {
			_, err := svc.Send(ctx, owner, id, core.SendRequest{Data: strings.Repeat("x", 10<<20), NoSubmit: true})
			return err
		}},
		{layer: "core", name: "send by a stranger", want: core.ErrForeignSession, call: func() error {
			_, err := svc.Send(ctx, stranger, id, core.SendRequest{Data: "id"})
			return err
		}},
		{layer: "core", name: "read a page of -1 lines", want: core.ErrInvalidArgument, call: func() error { _, err := svc.Read(owner, id, core.PageRequest{Count: -1}); return err }},
		{layer: "core", name: "signal SIGSTOP (not allowed)", want: core.ErrInvalidArgument, call: func() error {
			_, err := svc.Signal(ctx, owner, id, core.SignalRequest{Signal: "SIGSTOP"})
			return err
		}},
		{layer: "core", name: "resize to zero", want: core.ErrInvalidArgument, call: func() error { return svc.Resize(ctx, owner, id, core.Size{}) }},
		{layer: "core", name: "write to a closed session", want: core.ErrNoSession, call: func() error {
			_, err := svc.Write(ctx, owner, closed.SessionID, []byte("x"))
			return err
		}},
		// ptysession facade
		{layer: "facade", name: "open with an invalid env name", want: core.ErrInvalidArgument, call: func() error {
			_, err := fac.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Env: map[string]string{"1BAD": "x"}})
			return err
		}},
		{layer: "facade", name: "open with a NUL in an env value", want: core.ErrInvalidArgument, call: func() error {
			_, err := fac.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Env: map[string]string{"A": "x\x00"}})
			return err
		}},
		{layer: "facade", name: "open in a directory that does not exist", check: func(err error) bool {
			return errors.Is(err, core.ErrInvalidArgument) || errors.Is(err, core.ErrSpawnFailed)
		}, call: func() error {
			_, err := fac.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Cwd: "/no/such/dir"})
			return err
		}},
		{layer: "facade", name: "send to an unknown id", want: core.ErrNoSession, call: func() error {
			_, err := fac.Send(ctx, owner, "pty_unknown", ptysession.SendRequest{Data: "x"})
			return err
		}},
		{layer: "facade", name: "send to a closed session", want: core.ErrNoSession, call: func() error {
			_, err := fac.Send(ctx, owner, closed.SessionID, ptysession.SendRequest{Data: "x"})
			return err
		}},
		{layer: "facade", name: "tail of -5 lines", want: core.ErrInvalidArgument, call: func() error { _, err := fac.Tail(ctx, owner, id, -5); return err }},
		{layer: "facade", name: "tail of a million lines", want: core.ErrInvalidArgument, call: func() error { _, err := fac.Tail(ctx, owner, id, 1_000_000); return err }},
		{layer: "facade", name: "tail by a stranger", want: core.ErrForeignSession, call: func() error { _, err := fac.Tail(ctx, stranger, id, 10); return err }},
		{layer: "facade", name: "close by a stranger", want: core.ErrForeignSession, call: func() error { _, err := fac.Close(ctx, stranger, id); return err }},
		{layer: "facade", name: "signal with an unknown name", want: core.ErrInvalidArgument, call: func() error { _, err := fac.Signal(ctx, owner, id, "SIGFOO"); return err }},
		// tools (JSON in, as a model would send it)
		{layer: "tools", name: "an unknown tool", check: toolCode(core.CodeInvalidArgument), call: callTool("pty_explode", `{}`)},
		{layer: "tools", name: "malformed JSON", check: toolCode(core.CodeInvalidArgument), call: callTool("pty_send", `{"id": `)},
		{layer: "tools", name: "a missing required field", check: toolCode(core.CodeInvalidArgument), call: callTool("pty_send", `{"data": "ls"}`)},
		{layer: "tools", name: "a wrong type", check: toolCode(core.CodeInvalidArgument), call: callTool("pty_tail", `{"id": "`+string(id)+`", "lines": "ten"}`)},
		{layer: "tools", name: "an unknown field", check: toolCode(core.CodeInvalidArgument), call: callTool("pty_close", `{"id": "`+string(id)+`", "force": true}`)},
		{layer: "tools", name: "arguments that are not an object", check: toolCode(core.CodeInvalidArgument), call: callTool("pty_list", `[1,2]`)},
		{layer: "tools", name: "a foreign id", check: toolCode(core.CodeNoSession), call: callTool("pty_send", `{"id": "pty_aaaaaaaaaaaaaaaaaaaaaaaaaa", "data": "x"}`)},
		{layer: "tools", name: "a negative page start", check: toolCode(core.CodeInvalidArgument), call: callTool("pty_read", `{"id": "`+string(id)+`", "offset": -3}`)},
		// gdbmi
		{layer: "gdbmi", name: "an unterminated c-string", check: isType[*gdbmi.SyntaxError], call: func() error { _, err := gdbmi.ParseLineString(`~"abc`); return err }},
		{layer: "gdbmi", name: "a bad octal escape", check: isType[*gdbmi.SyntaxError], call: func() error { _, err := gdbmi.ParseLineString(`~"\9"`); return err }},
		{layer: "gdbmi", name: "an unknown result class", check: isType[*gdbmi.SyntaxError], call: func() error { _, err := gdbmi.ParseLineString(`^maybe`); return err }},
		{layer: "gdbmi", name: "an unclosed tuple", check: isType[*gdbmi.SyntaxError], call: func() error { _, err := gdbmi.ParseLineString(`^done,a={b="1"`); return err }},
		{layer: "gdbmi", name: "a gdb that does not exist", check: func(err error) bool { return err != nil && isType[*gdbmi.StartError](err) }, call: func() error {
			c, err := gdbmi.Start(ctx, svc, gdbmi.Options{GDB: "/no/such/gdb", Owner: owner})
			if err == nil {
				c.Close(ctx)
			}
			return err
		}},
		// jobs
		{layer: "jobs", name: "a buffer below the range", want: core.ErrInvalidArgument, call: func() error { _, err := jobs.New(svc, jobs.Config{BufferCapacity: 5}); return err }},
		{layer: "jobs", name: "a stop grace above the range", want: core.ErrInvalidArgument, call: func() error {
			_, err := jobs.New(svc, jobs.Config{StopGrace: time.Hour})
			return err
		}},
		{layer: "jobs", name: "launch with no command", want: core.ErrInvalidArgument, call: func() error { _, err := jm.Launch(ctx, owner, jobs.LaunchRequest{}); return err }},
		{layer: "jobs", name: "read an unknown job", want: core.ErrNoSession, call: func() error { _, err := jm.Read(owner, "bg_nope", jobs.ReadRequest{}); return err }},
		{layer: "jobs", name: "an invalid regex filter", want: core.ErrInvalidArgument, call: func() error {
			j, err := jm.Launch(ctx, owner, jobs.LaunchRequest{Command: "true"})
			if err != nil {
				return err
			}
			_, err = jm.Read(owner, j.ID, jobs.ReadRequest{Pattern: "(unclosed"})
			return err
		}},
		{layer: "jobs", name: "stop a job of another owner", check: func(err error) bool {
			return errors.Is(err, core.ErrForeignSession) || errors.Is(err, core.ErrNoSession)
		}, call: func() error {
			j, err := jm.Launch(ctx, owner, jobs.LaunchRequest{Command: "sleep", Args: []string{"100"}})
			if err != nil {
				return err
			}
			_, err = jm.Stop(ctx, stranger, j.ID, jobs.StopOptions{})
			return err
		}},
		{layer: "jobs", name: "drop with both an id and a group", want: core.ErrInvalidArgument, call: func() error {
			_, err := jm.Drop(ctx, owner, jobs.DropRequest{ID: "x", Group: "y"})
			return err
		}},
	}
	cases = append(cases, sshBadInputs(t, ctx, svc, owner)...)
	if len(cases) < 40 {
		t.Fatalf("only %d malformed inputs; the suite promises at least 40", len(cases))
	}
	layers := map[string]int{}
	for _, c := range cases {
		err := c.call()
		ok := false
		switch {
		case c.check != nil:
			ok = c.check(err)
		default:
			ok = errors.Is(err, c.want)
		}
		if !ok {
			t.Errorf("%s: %s: got %v", c.layer, c.name, err)
		}
		layers[c.layer]++
	}
	t.Logf("%d malformed inputs by layer: %v", len(cases), layers)

	// The service still serves a healthy session.
	res, err := fac.Send(ctx, owner, id, ptysession.SendRequest{Data: "echo still-healthy"})
	if err != nil || !strings.Contains(res.Delta, "still-healthy") || res.WaitReason != core.WaitPrompt {
		t.Fatalf("the healthy session stopped working: %+v, %v", res, err)
	}
	fresh, err := fac.Open(ctx, owner, ptysession.OpenRequest{Command: "python3 -q"})
	if err != nil {
		t.Fatalf("a new session after the bad inputs: %+v, %v", fresh, err)
	}
	// The open may settle before python prompts (on a loaded machine its
	// start outlasts the quiet window: inferred_idle): wait for the prompt,
	// from the open's own output on (output is returned once: a tail does
	// not repeat it).
	text := fresh.InitialOutput
	for deadline := time.Now().Add(testenv.HangBound); !strings.HasSuffix(text, ">>> "); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the new session never prompted: %q (open: %+v)", text, fresh)
		}
		tr, err := fac.Tail(ctx, owner, fresh.SessionID, 0)
		if err != nil {
			t.Fatal(err)
		}
		text += tr.Text
	}
}
