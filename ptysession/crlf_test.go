package ptysession

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// Text with Windows line ends (a page or a file copied into a send) ends
// each line with "\r\n". The terminal reads "\r" and "\n" each as Enter,
// so every line was followed by an empty one: blank lines inside a
// heredoc's file, and a Python block ended after its first line. A send
// types "\r\n" as one Enter.
func TestWindowsLineEndsAreOneEnter(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		dir := t.TempDir()
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Cwd: dir})
		if _, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "cat > a.txt <<'EOF'\r\none\r\ntwo\r\nEOF\r\n"}); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(got) != "one\ntwo\n" {
			t.Fatalf("the heredoc's file holds %q (%v), want %q", got, err, "one\ntwo\n")
		}
	})
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "python3 -q"})
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "def f(x):\r\n    y = x * 2\r\n    return y + 1\r\n\r\nprint(f(20))"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, "41") || strings.Contains(res.Delta, "Error") {
			t.Fatalf("a Python function with Windows line ends: %q, want 41", res.Delta)
		}
	})
}
