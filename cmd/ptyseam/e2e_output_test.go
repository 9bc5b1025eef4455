package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// TestRealMCPClientOutput runs output-client.mjs: a long build log cut to
// its head, its newest lines and its error line, with the ranges left out,
// and pty_search over a terminal and a job, through the real TypeScript
// client.
func TestRealMCPClientOutput(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "output-client.mjs", bin, t.TempDir())
	var summary struct {
		OK      bool               `json:"ok"`
		Figures map[string]float64 `json:"figures"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	t.Logf("output: %v", summary.Figures)
	waitNoSurvivors(t)
}
