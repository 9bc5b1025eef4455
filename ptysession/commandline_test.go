package ptysession

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// Keys typed at a shell's prompt stay on its command line, and the next
// send types after them: a model that sent "q" to a pager that had
// already quit saw "[stdin_read]\nq" and then ran "qls". The result names
// the text waiting there, follows Backspace and Ctrl-U, and says nothing
// once the line was submitted or edited in ways it does not follow.
func TestKeysLeftOnTheCommandLineAreNamed(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{})
		keys := func(data string) SendResult { t.Helper(); return typeKeys(t, s, owner, r.SessionID, data) }
		if res := keys("q"); res.CommandLine != "q" {
			t.Fatalf("after q: command line %q, want %q (%s %q)", res.CommandLine, "q", res.WaitReason, res.Delta)
		}
		if res := keys("x\x7fy"); res.CommandLine != "qy" {
			t.Fatalf("after x, Backspace, y: command line %q, want %q", res.CommandLine, "qy")
		}
		if text := RenderSend(keys("z")); !strings.HasPrefix(text, `[stdin_read; "qyz" waits on the input line, not entered`) {
			t.Fatalf("the rendering does not name the waiting text: %q", text)
		}
		if res := keys("\x15"); res.CommandLine != "" {
			t.Fatalf("after Ctrl-U: command line %q, want none", res.CommandLine)
		}
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "echo ok"})
		if err != nil || res.CommandLine != "" || !strings.Contains(res.Delta, "ok") {
			t.Fatalf("echo ok after Ctrl-U: %q command line %q (%v)", res.Delta, res.CommandLine, err)
		}
		if res := keys("ec\tx"); res.CommandLine != "" {
			t.Fatalf("a line edited by completion is named %q", res.CommandLine)
		}
	})
}

// Keys typed at a console's prompt (Python's) or at a question that reads
// a line stay on that line too: a model that sent "q" after help() at
// Python's prompt ran "qprint(1)" next. The result names the text when the
// line the program reads ends in it.
func TestKeysLeftOnAProgramsLineAreNamed(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "python3 -q"})
		if !strings.HasSuffix(r.InitialOutput, ">>> ") {
			t.Fatalf("python3 started with %q", r.InitialOutput)
		}
		keys := func(data string) SendResult { t.Helper(); return typeKeys(t, s, owner, r.SessionID, data) }
		if res := keys("q"); res.CommandLine != "q" || !strings.HasPrefix(RenderSend(res), `[stdin_read; "q" waits on the input line, not entered`) {
			t.Fatalf("after q at >>>: command line %q (%s %q):\n%s", res.CommandLine, res.WaitReason, res.Delta, RenderSend(res))
		}
		if res := keys("\x15"); res.CommandLine != "" {
			t.Fatalf("after Ctrl-U: command line %q, want none", res.CommandLine)
		}
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "x = input('name? ')"})
		if err != nil || !strings.HasSuffix(res.Delta, "name? ") {
			t.Fatalf("input(): %q (%v)", res.Delta, err)
		}
		if res := keys("bo"); res.CommandLine != "bo" {
			t.Fatalf("after bo at a question: command line %q", res.CommandLine)
		}
		res, err = s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "b"})
		if err != nil || res.CommandLine != "" || !strings.HasSuffix(res.Delta, ">>> ") {
			t.Fatalf("the answer's end: %q command line %q (%v)", res.Delta, res.CommandLine, err)
		}
		if res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "print(x)"}); err != nil || !strings.Contains(res.Delta, "bob\n") {
			t.Fatalf("print(x): %q (%v)", res.Delta, err)
		}
	})
}

// typeKeys sends data to session id as keys (NoSubmit) and returns the
// result.
func typeKeys(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, data string) SendResult {
	t.Helper()
	res, err := s.Send(testCtx(t), owner, id, SendRequest{Data: data, NoSubmit: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSendToAProgramReadingWithoutAPromptSaysSo: a command that reads its
// input from the terminal without a prompt (grep with no file, cat)
// settles on stdin_read with nothing after its echo; the text says that
// what is sent next is its input (a model sent ls into grep). A program
// that shows a prompt, and the shell's own prompt, get no such note.
func TestSendToAProgramReadingWithoutAPromptSaysSo(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		send := func(data string) string {
			t.Helper()
			res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: data})
			if err != nil {
				t.Fatal(err)
			}
			return RenderSend(res)
		}
		if text := send("echo shell"); strings.Contains(text, "its input") {
			t.Fatalf("a command at the shell's prompt: %s", text)
		}
		if text := send("grep needle"); !strings.HasPrefix(text, "[stdin_read; "+programInputNote) {
			t.Fatalf("grep reading the terminal: %s", text)
		}
		if text := send("a needle here"); !strings.Contains(text, "a needle here") {
			t.Fatalf("grep's match: %s", text)
		}
		if res := typeKeys(t, s, owner, r.SessionID, "\x04"); res.WaitReason != core.WaitPrompt {
			t.Fatalf("Ctrl-D to grep: %+v", res)
		}
		if text := send("python3 -q"); strings.Contains(text, "its input") {
			t.Fatalf("python3 at its prompt: %s", text)
		}
	})
}

// TestSendToAFullScreenProgramNamesNoInput: vi reads the terminal and
// leaves no text in the scrollback (it holds the alternate screen), yet
// it is no program silently reading a line: the send says it is on the
// alternate screen and carries no input note.
func TestSendToAFullScreenProgramNamesNoInput(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "vi " + filepath.Join(t.TempDir(), "notes.txt")})
		if err != nil {
			t.Fatal(err)
		}
		if res.WaitReason != core.WaitStdinRead || !res.AltScreen || res.InputNote != "" {
			t.Fatalf("vi: %s, alternate screen %v, input note %q", res.WaitReason, res.AltScreen, res.InputNote)
		}
		// vi may settle a send on one of its reads before it quits: the
		// shell's prompt comes back on the normal screen.
		if _, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: ":q!"}); err != nil {
			t.Fatal(err)
		}
		waitTailSuffix(t, s, owner, r.SessionID, "# ")
		res, err = s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "echo back"})
		if err != nil || res.WaitReason != core.WaitPrompt || res.AltScreen {
			t.Fatalf("after vi: %s, alternate screen %v, %q %v", res.WaitReason, res.AltScreen, res.Delta, err)
		}
	})
}
