package screen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/ptysession"
	"github.com/ptyseam/ptyseam/ptysession/ptytools"
)

// What pty_keys and pty_screen showed as a screen is not returned again as
// a stream: after editing in vi with pty_keys and quitting it, the next
// pty_send returns its own output, not vi's drawing or its last message.
func TestKeysMoveTheTail(t *testing.T) {
	e := newEnv(t, Options{})
	d := facadeDispatcher(t, e)
	vi := need(t, "vi", "vim-tiny")
	dir := t.TempDir()
	id := openBash(t, d, e, dir)
	if _, err := call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": vi + " -u NONE -i NONE -N -n " + filepath.Join(dir, "a.txt")}); err != nil {
		t.Fatal(err)
	}
	for _, keys := range []map[string]any{
		{"id": id, "text": "isquash-marker-line", "keys": []string{"Escape"}},
		{"id": id, "text": ":wq", "keys": []string{"Enter"}},
	} {
		if _, err := call(t, d, e.owner, ToolKeys, keys); err != nil {
			t.Fatal(err)
		}
	}
	res, err := call(t, d, e.owner, ptytools.ToolSend, map[string]any{"id": id, "data": "echo after-vi"})
	if err != nil {
		t.Fatal(err)
	}
	delta := res.Structured.(ptysession.SendResult).Delta
	// The result starts where the send began: vi's last message (the
	// file written) and the keys typed were shown as screens already.
	if !strings.HasPrefix(delta, "echo after-vi\n") || strings.Contains(delta, "written") || strings.Contains(delta, ":wq") {
		t.Fatalf("the send after pty_keys returned %d bytes:\n%q", len(delta), delta)
	}
}
