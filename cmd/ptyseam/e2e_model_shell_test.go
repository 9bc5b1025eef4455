package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// TestRealMCPClientModelShell: through the real TypeScript client, a
// multi-line send returns once the shell ran its last line (with the
// crash, its status and the last exit code), and the shell a model opens
// takes "!" literally, runs no pager and reports every line's exit code.
func TestRealMCPClientModelShell(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "model-shell-client.mjs", bin, t.TempDir())
	var summary struct {
		OK                  bool `json:"ok"`
		MultiLineResultByte int  `json:"multiLineResultBytes"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	t.Logf("summary: %s", last)
	waitNoSurvivors(t)
}
