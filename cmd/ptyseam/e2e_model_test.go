package main

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestRealMCPClientModelTasks runs model-client.mjs: full-screen programs
// through pty_send and pty_keys, keys that settle once the screen stopped
// changing, results that carry their payload once (in both result forms),
// pty_signal's output, pty_open's size, bg_launch's readiness wait, top
// within its budget, and no output returned twice.
func TestRealMCPClientModelTasks(t *testing.T) {
	node, dir := requireNode(t)
	bin := serverBinary(t)
	for _, form := range []string{"structured", "text"} {
		t.Run(form, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			args := []string{"model-client.mjs", bin, t.TempDir(), strconv.Itoa(testenv.ReservePort(t))}
			if form == "text" {
				args = append(args, "--text-results")
			}
			last := runNode(t, ctx, node, dir, args...)
			var summary struct {
				OK      bool               `json:"ok"`
				Figures map[string]float64 `json:"figures"`
			}
			if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
				t.Fatalf("client summary %q: %v", last, err)
			}
			t.Logf("%s results: %v", form, summary.Figures)
			waitNoSurvivors(t)
		})
	}
}
