package screen

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
)

// Keys typed where no full-screen program holds the terminal (a shell's
// Tab completion, Ctrl-D to cat) return what they printed, as pty_send
// does, not the whole screen: Ctrl-D to cat returned 40 rows (4,200
// bytes) of earlier output for a prompt.
func TestKeysInLineModeReturnOutput(t *testing.T) {
	e := newEnv(t, Options{})
	d := facadeDispatcher(t, e)
	id := openBash(t, d, e, t.TempDir())
	if _, err := call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": "seq 1 40; cat"}); err != nil {
		t.Fatal(err)
	}

	res, err := call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": "meow", "keys": []string{"Enter"}})
	if err != nil {
		t.Fatal(err)
	}
	kr := res.Structured.(KeysToolResult)
	if kr.Screen != nil || kr.Delta != "meow\nmeow\n" {
		t.Fatalf("keys to cat: delta %q, screen %v\n%s", kr.Delta, kr.Screen != nil, res.Text)
	}

	res, err = call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "keys": []string{"C-d"}})
	if err != nil {
		t.Fatal(err)
	}
	kr = res.Structured.(KeysToolResult)
	if kr.Screen != nil || kr.WaitReason != "prompt" || kr.ExitCode == nil || *kr.ExitCode != 0 || strings.Contains(kr.Delta, "39\n40") {
		t.Fatalf("Ctrl-D to cat: %s, exit %v, delta %q, screen %v\n%s", kr.WaitReason, kr.ExitCode, kr.Delta, kr.Screen != nil, res.Text)
	}
	if !strings.HasPrefix(res.Text, "[prompt; command exit code 0]\n") || len(res.Text) > 100 || strings.Contains(res.Text, "meow") {
		t.Fatalf("Ctrl-D to cat, %d bytes of text:\n%s", len(res.Text), res.Text)
	}

	// What the keys returned moved the tail: the next send returns its
	// own output, nothing of the keys' again.
	res, err = call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": "echo by-keys", "keys": []string{"Enter"}})
	if err != nil {
		t.Fatal(err)
	}
	if kr := res.Structured.(KeysToolResult); !strings.HasPrefix(kr.Delta, "echo by-keys\nby-keys\n") {
		t.Fatalf("keys with Enter at the prompt: delta %q", kr.Delta)
	}
	res, err = call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": "echo after-keys"})
	if err != nil {
		t.Fatal(err)
	}
	if delta := res.Structured.(ptysession.SendResult).Delta; !strings.HasPrefix(delta, "echo after-keys\n") {
		t.Fatalf("the send after pty_keys returned output the keys had returned:\n%q", delta)
	}

	// A key typed at the prompt waits on the command line: the result
	// says so, or the next send would run "qls".
	res, err = call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "keys": []string{"q"}})
	if err != nil {
		t.Fatal(err)
	}
	if kr := res.Structured.(KeysToolResult); kr.CommandLine != "q" || !strings.HasPrefix(res.Text, `[stdin_read; "q" waits on the input line, not entered`) {
		t.Fatalf("q typed at the prompt: command line %q\n%s", kr.CommandLine, res.Text)
	}
}
