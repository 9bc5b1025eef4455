package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlayPrintsTheOutputInOrder(t *testing.T) {
	cast := `{"version": 2, "width": 80, "height": 24}
[0.1, "o", "hello "]
[0.2, "i", "typed\r"]
[0.3, "m", "prompt"]
[0.4, "r", "100x30"]
[5.0, "o", "world\r\n"]
`
	path := filepath.Join(t.TempDir(), "x.cast")
	if err := os.WriteFile(path, []byte(cast), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	// The 4.6 s pause is cut to the idle bound, then divided by the speed.
	if code := runPlay(context.Background(), []string{"--speed", "100", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if out.String() != "hello world\r\n" {
		t.Fatalf("played %q", out.String())
	}
	if code := runPlay(context.Background(), []string{filepath.Join(t.TempDir(), "missing.cast")}, &out, &errb); code != 1 {
		t.Fatalf("missing file: exit %d", code)
	}
	errb.Reset()
	bad := filepath.Join(t.TempDir(), "bad.cast")
	_ = os.WriteFile(bad, []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\nnot json\n"), 0o600)
	if code := runPlay(context.Background(), []string{bad}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "line 2") {
		t.Fatalf("bad file: exit %d %q", code, errb.String())
	}
}
