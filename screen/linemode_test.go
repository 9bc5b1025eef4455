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
	res, err := call(t, d, e.owner, ptytools.ToolOpen, map[string]any{"command": "bash", "cwd": t.TempDir(), "cols": 80, "rows": 24})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Structured.(ptysession.OpenResult).SessionID
	if _, err := call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": "seq 1 40; cat"}); err != nil {
		t.Fatal(err)
	}

	res, err = call(t, d, e.owner, ToolKeys, map[string]any{"id": id, "text": "meow", "keys": []string{"Enter"}})
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
	if kr.Screen != nil || kr.WaitReason != "prompt" || kr.ExitCode == nil || *kr.ExitCode != 0 || strings.Contains(kr.Delta, "40") {
		t.Fatalf("Ctrl-D to cat: %s, exit %v, delta %q, screen %v\n%s", kr.WaitReason, kr.ExitCode, kr.Delta, kr.Screen != nil, res.Text)
	}
	if !strings.HasPrefix(res.Text, "[prompt; command exit code 0]\n") || len(res.Text) > 100 {
		t.Fatalf("Ctrl-D to cat, %d bytes of text:\n%s", len(res.Text), res.Text)
	}
}
