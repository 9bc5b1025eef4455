package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRecordDirAndPtyOpenRecord(t *testing.T) {
	dir := t.TempDir()
	cs, ts := connect(t, defaultConfig(t, "--record-dir", dir, "--record-requested"))
	asked, res := call(t, cs, "pty_open", map[string]any{"command": "bash", "record": true})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	plain, res := call(t, cs, "pty_open", map[string]any{"command": "bash"})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	call(t, cs, "pty_send", map[string]any{"id": asked["sessionId"], "data": "echo recorded-$((20+1))"})
	for _, id := range []any{asked["sessionId"], plain["sessionId"]} {
		call(t, cs, "pty_close", map[string]any{"id": id})
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.cast"))
	if len(files) != 1 || !strings.Contains(files[0], asked["sessionId"].(string)) {
		t.Fatalf("recordings %v", files)
	}
	ts.rec.Close() // the files of closed sessions are complete once it returns
	b, err := os.ReadFile(files[0])
	if err != nil || !strings.Contains(string(b), "recorded-21") || !strings.Contains(string(b), `"m", "prompt"`) {
		t.Fatalf("recording %q %v", b, err)
	}

	cs2, _ := connect(t, defaultConfig(t))
	_, res = call(t, cs2, "pty_open", map[string]any{"command": "bash", "record": true})
	if !res.IsError || !strings.Contains(resultText(res), "--record-dir") {
		t.Fatalf("record without --record-dir: %s", resultText(res))
	}
}
