package main

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestRealMCPClientWait runs wait-client.mjs: pty_wait for a dev server's
// ready line and its port, and for a background build's exit with
// progress, through the real TypeScript client.
func TestRealMCPClientWait(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "wait-client.mjs", bin, t.TempDir(), strconv.Itoa(testenv.ReservePort(t)))
	var summary struct {
		OK      bool               `json:"ok"`
		Figures map[string]float64 `json:"figures"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	t.Logf("pty_wait: %v", summary.Figures)
	waitNoSurvivors(t)
}
