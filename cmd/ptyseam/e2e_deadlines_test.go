package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// TestRealMCPClientDeadlines runs deadlines-client.mjs: timeoutMs and
// quietMs on pty_send and pty_open through the real TypeScript client,
// bounded by --max-timeout.
func TestRealMCPClientDeadlines(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "deadlines-client.mjs", bin, t.TempDir())
	var summary struct {
		OK bool `json:"ok"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	waitNoSurvivors(t)
}
