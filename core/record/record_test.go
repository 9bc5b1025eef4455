package record_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// recorded returns a service whose sessions a recorder records into a
// temporary folder; both are shut down at the end of the test.
func recorded(t testing.TB, all bool) (*core.Service, *record.Recorder) {
	t.Helper()
	rec, err := record.New(record.Options{Dir: t.TempDir(), All: all})
	if err != nil {
		t.Fatal(err)
	}
	svc := core.New(core.Options{OnSpawn: rec.OnSpawn, OnEvent: rec.OnEvent})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		rec.Close()
	})
	return svc, rec
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(cancel)
	return ctx
}

func send(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, text string) core.SendResult {
	t.Helper()
	op, err := svc.Send(ctxT(t), owner, id, core.SendRequest{Data: text})
	if err != nil {
		t.Fatalf("send %q: %v", text, err)
	}
	res, err := op.Wait(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// readAll reads a finished recording.
func readAll(t *testing.T, path string) (record.Header, []record.Event) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := record.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var evs []record.Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return r.Header, evs
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
}

func TestRecordingHasOutputInputsMarkersAndNoPassword(t *testing.T) {
	svc, rec := recorded(t, true)
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: localpty.TypeShell})
	if err != nil {
		t.Fatal(err)
	}
	const secret = "hunter2-do-not-record"
	if res := send(t, svc, owner, s.ID, `read -rs -p "Password: " pw; echo; echo "got ${#pw} chars"`); res.WaitReason != core.WaitStdinRead {
		t.Fatalf("prompt settled on %s", res.WaitReason)
	}
	if res := send(t, svc, owner, s.ID, secret); !strings.Contains(res.Delta, "got 21 chars") {
		t.Fatalf("answer: %q", res.Delta)
	}
	if err := svc.Resize(ctxT(t), owner, s.ID, core.Size{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	send(t, svc, owner, s.ID, "echo recorded-$((40+2))")
	path := rec.Path(s.ID)
	if path == "" || filepath.Dir(path) == "" {
		t.Fatal("no recording path")
	}
	if _, err := svc.Close(ctxT(t), owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
	rec.Close() // the file is complete once Close returns
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), secret) || strings.Contains(string(raw), "hunter2") {
		t.Fatalf("the password reached the recording:\n%s", raw)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("recording mode %v", fi.Mode().Perm())
	}
	hdr, evs := readAll(t, path)
	if hdr.Width != int(core.DefaultSize.Cols) || hdr.Height != int(core.DefaultSize.Rows) {
		t.Fatalf("header %+v", hdr)
	}
	var out strings.Builder
	var inputs, markers, resizes []string
	last := 0.0
	for _, ev := range evs {
		if ev.Time < last {
			t.Fatalf("time went back: %v after %v", ev.Time, last)
		}
		last = ev.Time
		switch ev.Code {
		case "o":
			out.WriteString(ev.Data)
		case "i":
			inputs = append(inputs, ev.Data)
		case "m":
			markers = append(markers, ev.Data)
		case "r":
			resizes = append(resizes, ev.Data)
		}
	}
	if len(inputs) != 3 || inputs[1] != record.HiddenInput || !strings.HasPrefix(inputs[2], "echo recorded-") {
		t.Fatalf("inputs %q\n%s", inputs, raw)
	}
	if strings.Join(markers, ",") != "stdin_read,prompt,prompt" {
		t.Fatalf("markers %q", markers)
	}
	if strings.Join(resizes, ",") != "100x30" {
		t.Fatalf("resizes %q", resizes)
	}
	if !strings.Contains(out.String(), "recorded-42") || !strings.Contains(out.String(), "got 21 chars") {
		t.Fatalf("output %q", out.String())
	}
}

func TestOnlyRequestedSessionsAreRecordedWithoutAll(t *testing.T) {
	svc, rec := recorded(t, false)
	owner := core.NewOwner("model")
	plain, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: localpty.TypeShell})
	if err != nil {
		t.Fatal(err)
	}
	asked, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: localpty.TypeShell, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Path(plain.ID) != "" || rec.Path(asked.ID) == "" {
		t.Fatalf("paths %q %q", rec.Path(plain.ID), rec.Path(asked.ID))
	}
}

// A secret written straight into the terminal (Service.Write, the path of
// the MCP server's secret page) while the terminal's echo is off reaches
// the recording as the placeholder, never as its bytes.
func TestWrittenSecretIsNotRecorded(t *testing.T) {
	svc, rec := recorded(t, true)
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: localpty.TypeShell})
	if err != nil {
		t.Fatal(err)
	}
	const secret = "page-typed-Secret-0042"
	if res := send(t, svc, owner, s.ID, `read -rs -p "Passphrase: " pw; echo; echo "got ${#pw} chars"`); res.WaitReason != core.WaitStdinRead {
		t.Fatalf("prompt settled on %s", res.WaitReason)
	}
	if _, err := svc.Write(ctxT(t), owner, s.ID, []byte(secret+"\r")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(testenv.HangBound); ; {
		page, err := svc.Read(owner, s.ID, core.PageRequest{Newest: true, Count: 5})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.Join(page.Lines, "\n"), "got 22 chars") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the written secret never reached the program: %+v", page)
		}
		time.Sleep(10 * time.Millisecond)
	}
	path := rec.Path(s.ID)
	if _, err := svc.Close(ctxT(t), owner, s.ID, "test"); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), secret) || strings.Contains(string(raw), "Secret-0042") {
		t.Fatalf("the written secret reached the recording:\n%s", raw)
	}
	_, evs := readAll(t, path)
	hidden := 0
	for _, ev := range evs {
		if ev.Code == "i" && ev.Data == record.HiddenInput {
			hidden++
		}
	}
	if hidden != 1 {
		t.Fatalf("want the write recorded once as %q, got %d: %+v", record.HiddenInput, hidden, evs)
	}
}
