package localpty

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestSendIntoAnIncompleteCommandSaysSo: a line with an open quote leaves
// bash at its continuation prompt, reading the rest of the command; the
// send says so (Continuation), and so does every send typed into that
// command, until the quote is closed and the command runs. A multi-line
// command that completes settles on the prompt without it.
func TestSendIntoAnIncompleteCommandSaysSo(t *testing.T) {
	send := shellSender(t)
	if res := send(`echo "hello`); res.WaitReason != core.WaitStdinRead || !res.Continuation {
		t.Fatalf("an open quote: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	if res := send("ls /"); res.WaitReason != core.WaitStdinRead || !res.Continuation {
		t.Fatalf("a line typed into the open command: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	res := send(`world"`)
	if res.WaitReason != core.WaitPrompt || res.Continuation || !strings.Contains(res.Delta, "hello\nls /\nworld") {
		t.Fatalf("the quote closed: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	if res := send("for i in 1 2; do\necho n$i\ndone"); res.WaitReason != core.WaitPrompt || res.Continuation {
		t.Fatalf("a complete multi-line command: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
}

// A Python block typed a line a send leaves the REPL at its "... "
// prompt: each send says the statement is incomplete (a model that missed
// it sent its next statement into the block and got a SyntaxError). The
// empty line ends it; a complete statement is not one, nor a block sent
// whole at ">>> ", which the send ends as a file's end does.
func TestSendIntoAnIncompletePythonBlockSaysSo(t *testing.T) {
	need(t, "python3")
	send := shellSender(t)
	if res := send("python3 -q"); res.WaitReason != core.WaitStdinRead || res.Continuation {
		t.Fatalf("python's first prompt: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	if res := send("def f(x):"); res.WaitReason != core.WaitStdinRead || !res.Continuation {
		t.Fatalf("an open block: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	if res := send("    return x*2"); res.WaitReason != core.WaitStdinRead || !res.Continuation {
		t.Fatalf("a line typed into the open block: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	if res := send(""); res.WaitReason != core.WaitStdinRead || res.Continuation {
		t.Fatalf("the block ended: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	if res := send("def g(x):\n    return x+1"); res.WaitReason != core.WaitStdinRead || res.Continuation || !strings.HasSuffix(res.Delta, ">>> ") {
		t.Fatalf("a block sent whole: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	res := send("print(f(21), g(1), 'dots...', end=' ... ')")
	if res.WaitReason != core.WaitStdinRead || res.Continuation || !strings.Contains(res.Delta, "42 2 dots...") {
		t.Fatalf("a complete statement: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
}

// A SQL statement sent to sqlite3 without its ";" leaves it at its
// "...>" prompt: the send says the statement is incomplete (a model that
// missed it sent its next statement into the same one, and an interrupt
// does not clear it). The ";" ends it.
func TestSendIntoAnIncompleteSQLStatementSaysSo(t *testing.T) {
	need(t, "sqlite3")
	send := shellSender(t)
	if res := send("sqlite3"); res.WaitReason != core.WaitStdinRead || res.Continuation {
		t.Fatalf("sqlite3's first prompt: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	res := send("select 6*7")
	if res.WaitReason != core.WaitStdinRead || !res.Continuation || core.ContinuationPrompt(res.WaitReason, res.Delta) != core.SQLContinuationPrompt {
		t.Fatalf("no semicolon: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
	if res := send(";"); res.WaitReason != core.WaitStdinRead || res.Continuation || !strings.Contains(res.Delta, "42") {
		t.Fatalf("the statement ended: %s, continuation %v, delta %q", res.WaitReason, res.Continuation, res.Delta)
	}
}

// shellSender opens a shell on a service and returns a send that waits
// for the result.
func shellSender(t *testing.T) func(data string) core.SendResult {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	return func(data string) core.SendResult {
		t.Helper()
		return sendWait(t, svc, owner, info.ID, data)
	}
}
